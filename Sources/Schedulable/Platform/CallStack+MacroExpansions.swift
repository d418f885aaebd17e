#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension CallStack {
    /// `frames` with each frame in a macro's expansion (`#expect(queue.count == 0)`, whose code the debug
    /// information places in a generated file, `@__swiftmacro_…swift`, at its line 1) placed where the
    /// macro was used: the compiler writes that file next to the build, and ends it with the range of the
    /// source it replaced (`// original-source-range: /path/File.swift:48:17-48:66`). A frame keeps its
    /// place when the file is not there to read (another machine) or has no such line.
    static func macroExpansionsAtTheirUse(_ frames: [Frame]) -> [Frame] {
        var frames = frames
        for index in frames.indices {
            guard let path = frames[index].path, fileName(of: path).hasPrefix("@__swiftmacro_"),
                let use = MacroExpansionSources.originalLocation(of: path)
            else { continue }
            (frames[index].path, frames[index].line, frames[index].column) = (use.path, use.line, use.column)
        }
        return frames
    }
}

/// The original locations read from generated macro-expansion files, per file (bounded).
enum MacroExpansionSources {
    private static let limit = 256
    private static let cache = LockedValue([String: (path: String, line: Int, column: Int)?]())

    /// The path, line and column of the source a generated file's expansion replaced, from its
    /// `// original-source-range:` line; `nil` when the file cannot be read or has none.
    static func originalLocation(of generatedFile: String) -> (path: String, line: Int, column: Int)? {
        if let known = cache.withLock({ $0[generatedFile] }) { return known }
        let found = read(generatedFile).flatMap(parse)
        cache.withLock { cache in
            if cache.count >= limit { cache.removeAll() }
            cache[generatedFile] = .some(found)
        }
        return found
    }

    /// `// original-source-range: /path/File.swift:48:17-48:66` → (`/path/File.swift`, 48, 17): the last
    /// such line of `text` (the compiler writes it at the end).
    static func parse(_ text: String) -> (path: String, line: Int, column: Int)? {
        let marker = "// original-source-range: "
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix(marker) }) else { return nil }
        // The range's start: path, then `:line:column`, then `-` and the end.
        let range = line.dropFirst(marker.count)
        guard let dash = range.lastIndex(of: "-") else { return nil }
        let start = range[..<dash].split(separator: ":", omittingEmptySubsequences: false)
        guard start.count >= 3, let number = Int(start[start.count - 2]), let column = Int(start[start.count - 1])
        else { return nil }
        return (start.dropLast(2).joined(separator: ":"), number, column)
    }

    /// The file's text, at most 1 MiB (an expansion is small; the marker is at its end).
    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while bytes.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
