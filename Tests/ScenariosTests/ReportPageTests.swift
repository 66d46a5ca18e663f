@testable import BuiltInScenarios
import Foundation
import Probes
import Reporting
@testable import Scenarios
import TestSupport
import Testing

/// The HTML report of a real run with a failure, read as a newcomer reads
/// it: in headless chromium at 1400 and 390 pixels wide. Screenshots of the
/// page's head and of the failed scenario are kept in .build/test-output
/// (report-head-1400.png, report-head-390.png, report-failed-1400.png,
/// report-failed-390.png) for a look after the run.
@Suite(.serialized) struct ReportPageTests {
    /// FetchAll, SingleFault, Prefetch and ToOneList with their fixes
    /// measured and their events kept, and DidFault stopped by its time
    /// limit (more iterations than 0.3 s allows), second in the run.
    static func run() throws -> (report: Report, timeline: Timeline) {
        var options = ScenarioCounterTests.options()
        options.configuration.iterations = 3
        options.configuration.measuresFixes = true
        options.keptEvents = 100_000
        let runner = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache)
        var scenarios = runner.run([.fetchAll, .singleFault, .prefetch, .toOneList])
        var limited = ScenarioCounterTests.options()
        limited.configuration.iterations = 100_000
        limited.configuration.warmup = 0
        limited.configuration.timeoutSeconds = 0.3
        let failed = ScenarioRunner(options: limited, cache: ScenarioCounterTests.cache).run(.didFault)
        scenarios.insert(failed, at: 1)
        let report = RunReport.make(
            scenarios, options: options, commandLine: ["perf-run", "run", "--scale", "0.02"], experiments: ScenarioCatalog.experiments,
            commit: "0123456789abcdef")
        return (report, Timeline(events: runner.events))
    }

    /// Written into the page after its own script ran: what the test reads
    /// back from the DOM (the page's, or the frame's around it at 390 px).
    static let measuring = """
        <script>(function(){
          var root = document.documentElement;
          var links = Array.prototype.map.call(document.querySelectorAll('nav.toc a'), function(a){ return a.getAttribute('href'); });
          var missing = links.filter(function(href){ return !document.getElementById(decodeURIComponent(href.slice(1))); });
          var headings = Array.prototype.map.call(document.querySelectorAll('main h2'), function(h){ return h.textContent; });
          var wide = [];
          document.querySelectorAll('main *').forEach(function(e){
            if (e.closest('.scroll') || e.getClientRects().length === 0) return;
            if (e.getBoundingClientRect().right > root.clientWidth + 0.5) wide.push(e.tagName + '.' + e.className);
          });
          // The first timeline zoomed in twice: a quarter of it, about its middle.
          var bar = document.querySelector('.timeline .zoom'), zoom = null;
          if (bar) {
            var plus = bar.querySelector('[data-zoom=in]');
            plus.click();
            plus.click();
            zoom = {viewBox: bar.parentElement.querySelector('svg.track').getAttribute('viewBox'), level: bar.querySelector('.level').textContent,
                    moves: !bar.querySelector('.pan').disabled};
          }
          var result = {zoom: zoom, ready: document.body.getAttribute('data-ready') === '1', scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, links: links, missing: missing,
                        headings: headings, wide: wide.slice(0, 10), tocPosition: getComputedStyle(document.querySelector('nav.toc')).position};
          if (window.parent !== window) { parent.postMessage(JSON.stringify(result), '*'); return; }
          var pre = document.createElement('pre');
          pre.id = 'page-message';
          pre.textContent = JSON.stringify(result);
          document.body.appendChild(pre);
        })();</script>
        """

    struct Measurements: Decodable {
        struct Zoom: Decodable {
            var viewBox: String
            var level: String
            var moves: Bool
        }

        var zoom: Zoom?
        var ready: Bool
        var scrollWidth: Double
        var clientWidth: Double
        var links: [String]
        var missing: [String]
        var headings: [String]
        var wide: [String]
        var tocPosition: String
    }

    static func measure(_ page: URL, width: Int) throws -> Measurements {
        let (dom, errors) = try HeadlessChromium.dumpDOM(page, width: width, height: 900)
        let console = errors.split(separator: "\n").filter { $0.contains("CONSOLE") }
        #expect(console.isEmpty, "console output: \(console)")
        let start = try #require(dom.range(of: "<pre id=\"page-message\">"))
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let json = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Measurements.self, from: Data(json.utf8))
    }

    @Test func aRunWithAFailureLeadsWithItAndFitsAPhone() throws {
        let (report, timeline) = try Self.run()
        let didFault = try #require(report.scenarios.first { $0.name == "DidFault" })
        #expect(didFault.status == .failed && didFault.error == "stopped: timed out after 0.3 s")
        let html = HTMLReport.render(report, timeline: timeline)

        // The failure leads, its reason in the failures section and in its row.
        let failures = try #require(html.range(of: "<section class=\"failures\"><h2>Failures"))
        let fixFirst = try #require(html.range(of: "<h2>What to fix first</h2>"))
        #expect(failures.lowerBound < fixFirst.lowerBound)
        #expect(html[failures.lowerBound..<fixFirst.lowerBound].contains("stopped: timed out after 0.3 s"))
        #expect(html.contains("<td colspan=\"5\" class=\"reason\">stopped: timed out after 0.3 s</td>"))
        #expect(html.contains("<p class=\"headline failed\">5 scenarios: 4 passed, 1 failed"))
        // Then the experiments, then the scenarios.
        let experiments = try #require(html.range(of: "id=\"part-experiments\""))
        let scenarios = try #require(html.range(of: "id=\"part-scenarios\""))
        #expect(fixFirst.lowerBound < experiments.lowerBound && experiments.lowerBound < scenarios.lowerBound)
        // A timeline per scenario that ran (the failed one kept no events).
        #expect(html.components(separatedBy: "<details class=\"fold timeline\"").count - 1 == 4)
        for name in ["FetchAll", "SingleFault", "Prefetch", "ToOneList"] {
            #expect(html.contains("<summary><h3>\(name)</h3> <span class=\"inside\">"), "\(name) has no timeline")
        }
        // FetchAll reads whole tables on purpose: no warning on its scans.
        let fetchAll = try #require(html.range(of: "id=\"scenario-FetchAll\""))
        let fetchAllSection = html[fetchAll.lowerBound...]
        let fetchAllEnd = try #require(fetchAllSection.range(of: "</section>"))
        let fetchAllHTML = fetchAllSection[..<fetchAllEnd.lowerBound]
        #expect(fetchAllHTML.contains("class=\"scan-on-purpose\""))
        #expect(!fetchAllHTML.contains("⚠") && !fetchAllHTML.contains("class=\"full-scan\""))

        let page = try HeadlessChromium.write(html.replacingOccurrences(of: "</body>", with: Self.measuring + "</body>"), named: "report-run.html")
        // Wide: the contents in a column; narrow: a bar, and nothing wider than the screen outside a table's box.
        for width in [1400, 390] {
            let measured = try Self.measure(page, width: width)
            #expect(measured.ready, "the page's script did not finish")
            // + twice shows the middle quarter (the view box is 1,000 wide), and the slider moves along.
            let zoom = try #require(measured.zoom)
            #expect(zoom.viewBox.hasPrefix("375 0 250 ") && zoom.level == "4×" && zoom.moves, "\(zoom)")
            #expect(measured.tocPosition == "sticky")
            #expect(measured.clientWidth <= Double(width))
            #expect(measured.scrollWidth <= measured.clientWidth, "at \(width) px: \(measured.scrollWidth) wide; too wide: \(measured.wide)")
            #expect(measured.wide.isEmpty, "at \(width) px, wider than the screen: \(measured.wide)")
            #expect(measured.links.contains("#part-failures") && measured.links.contains("#scenario-DidFault"))
            #expect(measured.missing.isEmpty, "links without a target: \(measured.missing)")
            let failuresHeading = try #require(measured.headings.firstIndex { $0.hasPrefix("Failures") })
            let fixHeading = try #require(measured.headings.firstIndex { $0 == "What to fix first" })
            #expect(failuresHeading == 0 && failuresHeading < fixHeading)
        }
        for width in [1400, 390] {
            let height = width == 390 ? 844 : 900
            let output = HeadlessChromium.outputDirectory
            for (name, fragment) in [("head", nil), ("failed", "scenario-DidFault")] as [(String, String?)] {
                let file = output.appendingPathComponent("report-\(name)-\(width).png")
                try HeadlessChromium.screenshot(page, fragment: fragment, width: width, height: height, to: file)
                #expect(FileManager.default.fileExists(atPath: file.path), "no screenshot \(file.lastPathComponent)")
            }
        }
    }
}
