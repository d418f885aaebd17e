import Foundation

/// The Swift files under the source directories `apply` was given, and the mapping from an observed
/// site's `#fileID` (`Module/File.swift`) to one of them.
///
/// A `#fileID` names the module and the file, not the folder: SwiftPM keeps a target's sources in
/// `<sources>/<Module>/` (at any depth below it), so the file is looked for there. Two candidates, or
/// none, are answered as such: `apply` then says so and edits nothing rather than guess.
struct SourceTree {
    /// Where a site's file is.
    enum Resolution: Equatable, Sendable {
        case found(String)
        case missing(String)
        case ambiguous([String])
    }

    let roots: [String]
    /// Every `*.swift` file with its text, as `<root>/<relative path>`, sorted (``SwiftSources``).
    let sources: [(path: String, text: String)]
    /// The paths of ``sources``.
    var files: [String] { sources.map(\.path) }

    /// Reads the files under `roots`.
    /// - Throws: ``AuditError`` naming a root that is not a directory or a file that is not UTF-8.
    init(roots: [String]) throws {
        self.roots = roots
        sources = try SwiftSources.load(directories: roots)
    }

    /// The file a site names.
    /// - Parameters:
    ///   - fileID: `Module/File.swift`, or a bare file name when the writer did not know the module.
    ///   - path: The full path from debug information, used when it exists.
    func resolve(_ fileID: String, path: String? = nil) -> Resolution {
        if let path, FileManager.default.fileExists(atPath: path) {
            // The tree's own spelling of that file when it is one of them, so diagnostics agree.
            let target = URL(fileURLWithPath: path).standardizedFileURL.path
            return .found(files.first { URL(fileURLWithPath: $0).standardizedFileURL.path == target } ?? path)
        }
        let parts = fileID.split(separator: "/", maxSplits: 1).map(String.init)
        let name = parts.last ?? fileID
        let module = parts.count == 2 ? parts[0] : nil
        let candidates = files.filter { file in
            guard (file as NSString).lastPathComponent == name else { return false }
            guard let module else { return true }
            return roots.contains { root in
                file.hasPrefix((root as NSString).appendingPathComponent(module) + "/")
            }
        }
        switch candidates.count {
        case 0:
            let under = roots.map { "'\($0)'" }.joined(separator: ", ")
            return .missing("cannot find '\(fileID)' under \(under)" + (module.map { " (looked in its module's folder '\($0)')" } ?? ""))
        case 1:
            return .found(candidates[0])
        default:
            return .ambiguous(candidates)
        }
    }
}
