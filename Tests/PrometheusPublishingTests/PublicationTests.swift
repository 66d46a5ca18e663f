import Foundation
import PrometheusPublishing
import Reporting
import Testing
