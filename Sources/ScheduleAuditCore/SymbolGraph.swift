import Foundation

/// The subset of a symbol-graph file (`<Module>.symbols.json`, format 0.6) that the audit reads.
///
/// The model is our own rather than swift-docc-symbolkit's because the library takes no package
/// dependencies; unknown keys are ignored, so newer compilers that add fields still decode.
public struct SymbolGraph: Decodable, Sendable {
    /// The module the graph describes.
    public struct Module: Decodable, Sendable {
        /// The module's name, e.g. `Schedulable`.
        public var name: String
    }

    /// One declaration.
    public struct Symbol: Decodable, Sendable {
        /// The kind, e.g. `swift.class`, `swift.property`, `swift.method`.
        public struct Kind: Decodable, Sendable {
            /// The kind's identifier, e.g. `swift.property`.
            public var identifier: String
        }

        /// The symbol's identity.
        public struct Identifier: Decodable, Sendable {
            /// The USR, e.g. `s:7Fixture4BaseC`.
            public var precise: String
        }

        /// The symbol's names.
        public struct Names: Decodable, Sendable {
            /// The name as `#function` spells it for methods (`enqueue(_:)`), else the plain name.
            public var title: String
        }

        /// Where the symbol is declared.
        public struct Location: Decodable, Sendable {
            /// A 0-based line and UTF-8 column.
            public struct Position: Decodable, Sendable {
                /// 0-based line.
                public var line: Int
                /// 0-based UTF-8 column of the declared name.
                public var character: Int
            }

            /// A `file://` URL.
            public var uri: String
            /// The position of the declared name.
            public var position: Position

            /// The file-system path of ``uri``.
            public var path: String {
                URL(string: uri)?.path ?? uri
            }
        }

        /// The symbol's kind.
        public var kind: Kind
        /// The symbol's identity.
        public var identifier: Identifier
        /// The path from the module to the symbol, e.g. `["Base", "enqueue(_:)"]`.
        public var pathComponents: [String]
        /// The symbol's names.
        public var names: Names
        /// The declaration as the compiler prints it, attributes and property wrappers included.
        public var declarationFragments: [DeclarationFragment]?
        /// `private`, `fileprivate`, `internal`, `package`, `public` or `open`.
        public var accessLevel: String
        /// Absent for symbols synthesized from other modules' extensions.
        public var location: Location?

        /// The declaration as a single string.
        public var declaration: String {
            (declarationFragments ?? []).map(\.spelling).joined()
        }
    }

    /// One piece of a printed declaration.
    public struct DeclarationFragment: Decodable, Sendable {
        /// `keyword`, `attribute`, `identifier`, `typeIdentifier`, `text`, ….
        public var kind: String
        /// The text of the fragment.
        public var spelling: String
        /// The USR of the type or attribute the fragment names, if any.
        public var preciseIdentifier: String?
    }

    /// A relationship between two symbols.
    public struct Relationship: Decodable, Sendable {
        /// `memberOf`, `conformsTo`, `inheritsFrom`, `overrides`, ….
        public var kind: String
        /// The USR of the source symbol.
        public var source: String
        /// The USR of the target symbol.
        public var target: String
        /// The qualified name of the target, present when the target is in another module.
        public var targetFallback: String?
    }

    /// The module the graph describes.
    public var module: Module
    /// The declarations in the graph.
    public var symbols: [Symbol]
    /// The relationships between them (and to symbols of other modules).
    public var relationships: [Relationship]

    /// Decodes a symbol-graph file.
    /// - Parameter data: The JSON contents of a `.symbols.json` file.
    /// - Throws: `DecodingError` when the data is not a symbol graph.
    public init(jsonData data: Data) throws {
        self = try JSONDecoder().decode(SymbolGraph.self, from: data)
    }

    /// Loads every `*.symbols.json` file in a directory (the main graph and `Module@Other` extension
    /// graphs), in name order so results are stable.
    /// - Parameter directory: A directory that `swift symbolgraph-extract` or SwiftPM wrote.
    /// - Returns: The decoded graphs.
    /// - Throws: ``AuditError`` when the directory cannot be read or a file does not decode.
    public static func loadDirectory(_ directory: URL) throws -> [SymbolGraph] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw AuditError("cannot read symbol graph directory '\(directory.path)': \(error.localizedDescription)")
        }
        return try names.filter { $0.hasSuffix(".symbols.json") }.sorted().map { name in
            let file = directory.appendingPathComponent(name)
            do {
                return try SymbolGraph(jsonData: Data(contentsOf: file))
            } catch {
                throw AuditError("cannot decode symbol graph '\(file.path)': \(error)")
            }
        }
    }
}

/// An error the audit reports to the user instead of a finding: bad arguments or unreadable input.
public struct AuditError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and, where possible, how to fix it.
    public var description: String

    /// Creates an error with a user-facing message.
    /// - Parameter description: What went wrong, with names in quotes.
    public init(_ description: String) {
        self.description = description
    }
}
