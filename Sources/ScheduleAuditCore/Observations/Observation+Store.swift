import Foundation

extension Observation {
    /// Every observation file of a run, merged per type (`module` + `type`; a generic class's
    /// specializations pooled into one).
    struct Store: Sendable {
        /// One checked use: the context it ran in, the member and the site; for a step, where the
        /// previous context last used the instance (`letGo`), when the file says.
        struct Use: Hashable, Sendable {
            var context: Context
            var member: String
            var site: Site?
            var letGo: Site? = nil
        }

        /// One kept instance's steps, in order, from one file.
        struct Instance: Sendable {
            var file: String
            var serial: Int
            var steps: [Use]
            var stepsDropped: Int
        }

        /// One type's observations from every file, merged.
        struct TypeEntry: Sendable {
            var type: String
            var module: String?
            /// `observed` or `declared`.
            var recordKind: String
            var createdAt: File.Location?
            var declaredOwner: Context?
            var boundAt: File.Location?
            /// Instances with a step, over every file; `dropped` of them were beyond the per-type limit (when
            /// the file counts them); `droppedSteps`, the steps of instances beyond the limit (when it counts those).
            var seen = 0
            var dropped = 0
            var droppedSteps = 0
            var instances: [Instance] = []
            /// The first site of each member in each context, from the members lists (which also cover the
            /// dropped instances), in file order.
            var memberUses: [Use] = []
            var contextsDropped = 0
            /// The files the type appears in.
            var files: [String] = []
            /// Those of ``files`` whose runtime did not state the innermost-serial rule: there a use inside
            /// another queue's `sync` on the thread the instance was bound to was not told apart from it.
            var unresolvedFiles: [String] = []
            /// The specializations pooled into this type (`Cursor<Int>`, `Cursor<Bool>`), when it is generic.
            var specializations: [String] = []
        }

        /// The files read, in the order merged (sorted by path).
        var files: [String]
        /// Merged types, sorted by type name, then module.
        var types: [TypeEntry]

        /// Reads files and directories (every `*.json` in a directory, not recursive) and merges them.
        ///
        /// - Parameter paths: Files and directories, as given on the command line.
        /// - Throws: ``AuditError`` naming a path that cannot be read, a file that is not a readable
        ///   observation file, or a type whose record differs between files.
        static func load(paths: [String]) throws -> Store {
            var files: [String] = []
            for path in paths {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw AuditError("no such file or directory '\(path)'")
                }
                if isDirectory.boolValue {
                    let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }
                    files += names.sorted().map { (path as NSString).appendingPathComponent($0) }
                } else {
                    files.append(path)
                }
            }
            files = Array(Set(files)).sorted()
            guard !files.isEmpty else {
                throw AuditError("no observation files (*.json) in \(paths.map { "'\($0)'" }.joined(separator: ", "))")
            }
            return try merge(files.map { ($0, try File.load(path: $0)) })
        }

        /// Merges decoded files.
        /// - Parameter files: Each file's path and contents, in the order to merge.
        /// - Throws: ``AuditError`` when one type's record differs between files (runs of different code).
        static func merge(_ files: [(path: String, file: File)]) throws -> Store {
            var types: [String: TypeEntry] = [:]
            for (path, file) in files {
                let contexts = Dictionary(file.contexts.map { ($0.id, Context(kind: $0.kind, label: $0.label)) }) { first, _ in first }
                // Validation guarantees every id is listed.
                func key(_ id: Int) -> Context { contexts[id]! }
                for observed in file.types {
                    let name = (observed.module.map { "\($0)." } ?? "") + observed.type
                    var merged = types[name] ?? TypeEntry(
                        type: observed.type, module: observed.module, recordKind: observed.record.kind,
                        createdAt: observed.record.createdAt, declaredOwner: observed.record.owner.map(key),
                        boundAt: observed.record.boundAt
                    )
                    let owner = observed.record.owner.map(key)
                    guard merged.recordKind == observed.record.kind, merged.createdAt == observed.record.createdAt,
                        merged.declaredOwner == owner
                    else {
                        throw AuditError(
                            "type '\(name)' has a different record in '\(path)' than in '\(merged.files[0])' (\(recordSummary(observed.record.kind, observed.record.createdAt, owner)) against \(recordSummary(merged.recordKind, merged.createdAt, merged.declaredOwner))): were these runs of different code?"
                        )
                    }
                    merged.files.append(path)
                    if file.resolution != File.innermostSerial { merged.unresolvedFiles.append(path) }
                    let counts = observed.instances
                    merged.seen += counts?.seen ?? counts?.kept ?? observed.instanceSteps.count
                    merged.dropped += counts?.dropped ?? 0
                    merged.droppedSteps += counts?.droppedSteps ?? 0
                    for member in observed.members {
                        merged.contextsDropped += member.contextsDropped
                        for use in member.contexts {
                            let use = Use(context: key(use.context), member: member.member, site: use.site)
                            if !merged.memberUses.contains(where: { $0.context == use.context && $0.member == use.member }) {
                                merged.memberUses.append(use)
                            }
                        }
                    }
                    for instance in observed.instanceSteps {
                        let steps = instance.steps.map { Use(context: key($0.context), member: $0.member, site: $0.site, letGo: $0.letGo) }
                        merged.instances.append(.init(file: path, serial: instance.serial, steps: steps, stepsDropped: instance.stepsDropped))
                    }
                    types[name] = merged
                }
            }
            let order = Dictionary(files.enumerated().map { ($1.path, $0) }) { first, _ in first }
            let pooled = poolSpecializations(Array(types.values), fileOrder: order)
            let sorted = pooled.sorted { ($0.type, $0.module ?? "") < ($1.type, $1.module ?? "") }
            return Store(files: files.map(\.path), types: sorted)
        }

        /// Pools the specializations of one generic class (same module, name before `<` and record) into
        /// one type named without generic arguments: they share the one record line `apply` edits, so they
        /// get one conclusion, judged from all their instances (in file order).
        static func poolSpecializations(_ types: [TypeEntry], fileOrder: [String: Int]) -> [TypeEntry] {
            var groups: [String: [TypeEntry]] = [:]
            var keys: [String] = []
            for type in types {
                let base = String(type.type.prefix { $0 != "<" })
                let created = type.createdAt.map { "\($0.file):\($0.line)" } ?? ""
                let key = [type.module ?? "", base, type.recordKind, created, type.declaredOwner?.description ?? ""].joined(separator: "\u{0}")
                if groups[key] == nil { keys.append(key) }
                groups[key, default: []].append(type)
            }
            // Specializations whose records differ (another line or owner) are not one line's: each keeps
            // its own name, so no two types share one.
            let name = { (key: String) in key.split(separator: "\u{0}", omittingEmptySubsequences: false).prefix(2).joined(separator: "\u{0}") }
            let records = Dictionary(keys.map { (name($0), 1) }, uniquingKeysWith: +)
            return keys.flatMap { key -> [TypeEntry] in
                let group = groups[key]!.sorted { $0.type < $1.type }
                let generic = group.map(\.type).filter { $0.contains("<") }
                guard !generic.isEmpty, records[name(key)] == 1 else { return group }
                var pooled = group[0]
                pooled.type = String(pooled.type.prefix { $0 != "<" })
                pooled.specializations = generic
                for type in group.dropFirst() {
                    pooled.seen += type.seen
                    pooled.dropped += type.dropped
                    pooled.droppedSteps += type.droppedSteps
                    pooled.contextsDropped += type.contextsDropped
                    pooled.instances += type.instances
                    pooled.files += type.files
                    pooled.unresolvedFiles += type.unresolvedFiles
                    for use in type.memberUses where !pooled.memberUses.contains(where: { $0.context == use.context && $0.member == use.member }) {
                        pooled.memberUses.append(use)
                    }
                }
                pooled.files = pooled.files.uniqued { $0 }.sorted { fileOrder[$0, default: 0] < fileOrder[$1, default: 0] }
                // A stable sort: each file's instances keep their order, files come in merge order.
                pooled.instances = pooled.instances.enumerated().sorted {
                    (fileOrder[$0.element.file, default: 0], $0.offset) < (fileOrder[$1.element.file, default: 0], $1.offset)
                }.map(\.element)
                return [pooled]
            }
        }

        private static func recordSummary(_ kind: String, _ createdAt: File.Location?, _ owner: Context?) -> String {
            var text = kind
            if let createdAt { text += " at \(createdAt.file):\(createdAt.line)" }
            if let owner { text += " owned by \(owner.description)" }
            return text
        }
    }
}
