import ArgumentParser
import Reporting

/// `--timing cpu|wall`, for `compare` and `trend`: the same time judged by
/// both.
extension TimingMeasure: ExpressibleByArgument {}
