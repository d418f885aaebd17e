/// Observation as the audit reads it: the observation files a run's processes wrote, named as the core
/// names what it writes (its `Observation` model), one word per concept across both: a ``File`` is one
/// process's file, a ``Store`` every file of a run merged per type (a ``Store/TypeEntry``, whose kept
/// instances are ``Store/Instance``s of ``Store/Use``s), a ``Context`` what used an object, a ``Site``
/// where.
enum Observation {
    /// A context named across processes: ids are per file, so files are matched by kind and label.
    struct Context: Codable, Hashable, Comparable, Sendable {
        /// The kind of a context that touched an object, as the observation file names it.
        enum Kind: String, Codable, Hashable, Comparable, Sendable {
            case main, scheduler, queue, pool, task, thread

            static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        var kind: Kind
        var label: String

        static func < (lhs: Context, rhs: Context) -> Bool {
            (lhs.kind, lhs.label) < (rhs.kind, rhs.label)
        }

        /// `scheduler 'com.app.uploads'`, `main thread`.
        var description: String {
            kind == .main ? "main thread" : "\(kind.rawValue) '\(label)'"
        }
    }

    /// Where a checked access happened: `#fileID` style file, line, and the function when known.
    struct Site: Codable, Hashable, Sendable {
        var file: String
        var line: Int
        var function: String?
        /// The full path, when the writer had debug information.
        var path: String?

        /// `App/Views.swift:12 render()`.
        var description: String {
            "\(file):\(line)" + (function.map { " \($0)" } ?? "")
        }
    }
}
