import Foundation

/// The Swift files under the source directories `apply` was given, and the mapping from an observed
/// site's `#fileID` (`Module/File.swift`) to one of them.
///
/// A `#fileID` names the module and the file, not the folder: SwiftPM keeps a target's sources in
/// `<sources>/<Module>/` (at any depth below it), so the file is looked for there. Two candidates, or
/// none, are answered as such: `apply` then says so and edits nothing rather than guess.
struct SourceTree: Sendable {
    /// Where a site's file is.
    enum Resolution: Equatable, Sendable {
        case found(String)
        case missing(String)
        case ambiguous([String])
    }

    let roots: [String]
    /// Every `*.swift` file, as `<root>/<relative path>`, sorted.
    let files: [String]

    /// Lists the files under `roots`.
    /// - Throws: ``AuditError`` naming a root that is not a directory.
    init(roots: [String]) throws {
        self.roots = roots
        var files: [String] = []
        for root in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw AuditError("no source directory '\(root)'; pass '--sources <dir>'")
            }
            let enumerator = FileManager.default.enumerator(atPath: root)
            while let relative = enumerator?.nextObject() as? String {
                // Hidden folders (`.build` inside a source tree) hold copies, never the sources.
                guard relative.hasSuffix(".swift"), !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
                files.append((root as NSString).appendingPathComponent(relative))
            }
        }
        self.files = files.sorted()
    }

    /// The file a site names.
    /// - Parameters:
    ///   - fileID: `Module/File.swift`, or a bare file name when the writer did not know the module.
    ///   - path: The full path from debug information, used when it exists.
    func resolve(_ fileID: String, path: String? = nil) -> Resolution {
        if let path, FileManager.default.fileExists(atPath: path) { return .found(path) }
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
