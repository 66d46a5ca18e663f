import Foundation
import Testing
@testable import Probes

/// A call site: a file and line, or none with its reason in words; the
/// module of a line named from the stack as `#fileID` names it.
@Suite struct CallSiteTests {
    @Test(arguments: CallSiteAbsence.allCases)
    func noSiteIsItsReasonInWords(reason: CallSiteAbsence) throws {
        let site = CallSite(noSiteBecause: reason)
        #expect(site.absence == reason && !site.isKnown && site.file.isEmpty)
        #expect(site.description == "no call site (\(reason.explanation))")
        #expect(!site.description.contains("?:0"))
        // The log's one word, and back.
        #expect(site.logText == "no-call-site:\(reason.rawValue)")
        #expect(CallSite(logFile: site.logText, line: 0) == site)
        #expect(site.traceFile == site.logText && site.traceLine == 0)
        // JSON: an empty file and line 0 (as a reader of an earlier
        // version reads them), and the reason.
        let json = String(decoding: try JSONEncoder().encode(site), as: UTF8.self)
        #expect(json.contains("\"noCallSite\":\"\(reason.rawValue)\"") && json.contains("\"line\":0") && json.contains("\"file\":\"\""))
        #expect(try JSONDecoder().decode(CallSite.self, from: Data(json.utf8)) == site)
    }

    /// The module a trace's `call_site` event carries: the part of the file
    /// before its first `/`, as `#fileID` names files.
    @Test func aSitesModuleIsItsFilesFirstPart() {
        #expect(CallSite(file: "App/List.swift", line: 12).module == "App")
        #expect(CallSite(file: "List.swift", line: 12).module == "")
        #expect(CallSite(noSiteBecause: .storeWork).module == "")
    }

    @Test func aSiteWithALineIsItsFileAndLine() throws {
        let site = CallSite(file: "App/List.swift", line: 12)
        #expect(site.description == "App/List.swift:12" && site.logText == "App/List.swift:12")
        #expect(site.isKnown && site.absence == nil)
        #expect(CallSite(logFile: "App/List.swift", line: 12) == site)
        let json = try JSONEncoder().encode(site)
        #expect(!String(decoding: json, as: UTF8.self).contains("noCallSite"))
        #expect(try JSONDecoder().decode(CallSite.self, from: json) == site)
    }

    /// An earlier report's `?:0` and an earlier log's read back: none recorded.
    @Test func anEarlierUnknownSiteIsNoneRecorded() throws {
        let decoded = try JSONDecoder().decode(CallSite.self, from: Data(#"{"file":"?","line":0}"#.utf8))
        #expect(decoded.absence == .notRecorded)
        #expect(decoded.description == "no call site (none recorded)")
        #expect(CallSite(logFile: "?", line: 0).absence == .notRecorded)
        #expect(CallSite.unknown.absence == .notRecorded)
    }

    @Test(arguments: [
        ("App/List.swift:12", true), ("List.swift:1", true), ("App/List.swift:0", false), ("App/List.swift:", false),
        ("no call site (the store's own work)", false), ("", false), ("App/List.swift:1a", false),
    ])
    func aSiteTextNamesALine(text: String, names: Bool) {
        #expect(CallSite.namesLine(text) == names)
    }

    /// The module of a line named from the stack: the function's, unless
    /// the function is a toolchain generic the application's closure was
    /// specialized into (an optimized build's `Collection.map` holding the
    /// closure at ToOneList.swift:42): then the target whose directory
    /// holds the file.
    @Test func theModuleOfALineIsTheApplicationsNotTheToolchains() {
        // `function signature specialization <… Closure Propagated …> of
        // generic specialization <…> of (extension in Swift):Swift.Collection.map`,
        // as swiftc -O names it.
        let specializedMap = "$sSlsE3mapySayqd__Gqd__7ElementQzqd_0_YKXEqd_0_YKs5ErrorRd_0_r0_lFSay16BuiltInScenarios8FireballCG_AF3RowVs5NeverOTg504$s16de21Scenarios4rowsySayAA3h8VGSayAA8G11CGFAdGXEfU_Tf1cn_n"
        #expect(CallerLine.module(of: specializedMap) == "Swift")
        #expect(CallerLine.module(of: specializedMap, path: "/src/Sources/BuiltInScenarios/Fireballs/ToOneList.swift") == "BuiltInScenarios")
        // Outside a package's layout, a toolchain module is no answer.
        #expect(CallerLine.module(of: specializedMap, path: "/src/Lib/ToOneList.swift") == nil)
        // The closure itself, `closure #1 (Blog.Fireball) -> Blog.Row in Blog.rows(…)`:
        // its own module, wherever its file is.
        let closure = "$s4Blog4rowsySayAA3RowVGSayAA8FireballCGFAdGXEfU_"
        #expect(CallerLine.module(of: closure, path: "/src/Sources/Other/Blog.swift") == "Blog")
        #expect(CallerLine.module(of: closure, path: "/src/Lib/Blog.swift") == "Blog")
    }

    @Test(arguments: [
        ("/work/app/Sources/BuiltInScenarios/Fireballs/ToOneList.swift", "BuiltInScenarios"),
        ("/work/app/Examples/Blog/Sources/blog-perf/main.swift", "blog_perf"),
        ("/work/app/Tests/BlogTests/BlogQueryTests.swift", "BlogTests"),
        ("/home/me/Sources/app/Sources/App/List.swift", "App"),
        ("/work/app/Lib/List.swift", nil),
        ("/work/app/Sources/List.swift", nil),
    ] as [(String, String?)])
    func theTargetOfAFileIsItsDirectoryUnderSourcesOrTests(path: String, target: String?) {
        #expect(CallerLine.target(of: path) == target)
    }

    @Test func aKeyPathsThunkIsNoReadersLine() {
        #expect(CallerLine.isKeyPathThunk("key path getter for Blog.Post.title : Blog.Post"))
        #expect(CallerLine.isKeyPathThunk("key path setter for Blog.Post.title : Blog.Post"))
        #expect(!CallerLine.isKeyPathThunk("Blog.Post.title.getter : Swift.String"))
        #expect(!CallerLine.isKeyPathThunk("closure #1 in Blog.rows() -> ()"))
    }
}
