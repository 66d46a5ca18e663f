import Foundation

/// Debian's chromium, headless, as the tests run pages in it (installed by
/// scripts/install-system-packages.sh --test): the DOM after a page's
/// scripts ran, and screenshots kept under .build/test-output for a look
/// after the run (never committed: .build is ignored).
public enum HeadlessChromium {
    public static let options = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--enable-logging=stderr", "--v=0"]

    /// Where pages and screenshots are kept: the package's .build/test-output.
    public static var outputDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-output")
    }

    /// Writes a page to the output directory.
    public static func write(_ page: String, named name: String) throws -> URL {
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        let file = outputDirectory.appendingPathComponent(name)
        try Data(page.utf8).write(to: file, options: .atomic)
        return file
    }

    /// The program, or an error that says how to install it.
    public static func program() throws -> String {
        guard let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Missing()
        }
        return path
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "chromium is not installed: scripts/install-system-packages.sh --test installs it" }
    }

    /// Headless chromium's narrowest window: a narrower page is shown in a
    /// frame of its width (``frame(_:fragment:width:height:)``).
    public static let narrowestWindow = 500

    /// The page's DOM after its scripts ran in a window `width` pixels wide,
    /// and what chromium wrote to standard error (console messages among
    /// it). Narrower than chromium's narrowest window, it is the DOM of the
    /// frame around the page: what the page posts to its parent
    /// (`parent.postMessage(text, '*')`) is there in `<pre id="page-message">`.
    public static func dumpDOM(_ page: URL, width: Int = 1280, height: Int = 2000) throws -> (dom: String, errors: String) {
        let shown = width < narrowestWindow ? try frame(page, width: width, height: height) : page
        return try run(try program(), options + [
            "--window-size=\(max(width, narrowestWindow)),\(height)", "--virtual-time-budget=2000", "--dump-dom", shown.absoluteString,
        ])
    }

    /// A screenshot of the top of `page` (a fragment scrolls to its target)
    /// in a window of `width` by `height` pixels, written to `file`. A page
    /// narrower than chromium's narrowest window is shown in a frame of its
    /// width at the left of the screenshot, grey beside it; a page with a
    /// fragment is shown in a frame too (headless chromium's screenshot of a
    /// page scrolled to a fragment at load is blank).
    public static func screenshot(_ page: URL, fragment: String? = nil, width: Int, height: Int, to file: URL) throws {
        var address = page.absoluteString
        if width < narrowestWindow || fragment != nil {
            address = try frame(page, fragment: fragment, width: width, height: height).absoluteString
        }
        try? FileManager.default.removeItem(at: file)
        _ = try run(try program(), options + ["--window-size=\(max(width, narrowestWindow)),\(height)", "--screenshot=\(file.path)", address])
    }

    /// A page beside `page` that shows it in a frame of `width` by `height`
    /// pixels (a phone's screen), and keeps what it posts to its parent.
    public static func frame(_ page: URL, fragment: String? = nil, width: Int, height: Int) throws -> URL {
        let source = page.lastPathComponent + (fragment.map { "#" + $0 } ?? "")
        let html = """
            <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#888">\
            <iframe src="\(source)" style="display:block;border:0;width:\(width)px;height:\(height)px;background:#fff"></iframe>\
            <script>window.addEventListener('message', function(event){ var pre = document.createElement('pre'); \
            pre.id = 'page-message'; pre.textContent = event.data; document.body.appendChild(pre); });</script></body></html>
            """
        let name = page.deletingPathExtension().lastPathComponent + "-frame-\(width).html"
        let file = page.deletingLastPathComponent().appendingPathComponent(name)
        try Data(html.utf8).write(to: file, options: .atomic)
        return file
    }

    /// Runs a program to its end: its standard output and standard error.
    public static func run(_ program: String, _ arguments: [String]) throws -> (String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box()
        let reader = Thread { box.data = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1_000) }
        return (String(decoding: stdout, as: UTF8.self), String(decoding: box.data, as: UTF8.self))
    }
}
