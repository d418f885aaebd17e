import Foundation

extension Observation {
    /// One observation file as the core library writes it at process exit, one per process (format
    /// `schedulable-observations`, version 2, and version 1, which spelt a location's file `file`; the Adopting in an Existing Codebase article documents it).
    /// `propose` and `claims` both read them through `Observation.Store`, which merges them.
    ///
    /// Decoding validates what the conclusions rely on: the format and version, the record kind, an owner for
    /// declared records, and that every context id a step or member names is listed.
    /// Unknown extra keys are ignored, so a newer writer that only adds keys is still read.
    struct File: Decodable, Sendable {
        /// The `format` value every observation file carries.
        static let format = "schedulable-observations"
        /// The newest version this reader understands.
        static let supportedVersion = 2
        /// The `resolution` of a runtime that records a use in the innermost serial context its thread
        /// holds, so that a use inside another queue's `sync` on the owner's thread is a step of its own.
        static let innermostSerial = "innermost-serial"

        struct Process: Decodable, Sendable {
            var pid: Int?
            var executable: String?
        }

        struct Limits: Decodable, Sendable {
            var instancesPerType: Int
            var stepsPerInstance: Int
            var contextsPerMember: Int
        }

        /// A context as this file lists it: its `id` is the file's own (``Observation/Context`` names it
        /// across files).
        struct Context: Decodable, Sendable {
            var id: Int
            var kind: Observation.Context.Kind
            var label: String
        }

        struct Location: Codable, Hashable, Sendable {
            var file: String
            var line: Int
        }

        struct Record: Decodable, Sendable {
            /// `observed` (`Confinement.observed()`) or `declared` (an owner, run at the `observe` level).
            var kind: String
            var createdAt: Location?
            var owner: Int?
            var boundAt: Location?
        }

        /// The instance counts. The core's writer gives `kept` and `droppedSteps`; the format note named
        /// them `seen` and `dropped` (instances with a step, and those beyond the limit): both are read.
        struct Counts: Decodable, Sendable {
            var kept: Int?
            var droppedSteps: Int?
            var seen: Int?
            var dropped: Int?
        }

        struct MemberContext: Decodable, Sendable {
            var context: Int
            var site: Site?
        }

        struct Member: Decodable, Sendable {
            var member: String
            var contexts: [MemberContext]
            var contextsDropped: Int
        }

        struct Step: Decodable, Sendable {
            var context: Int
            var member: String
            var site: Site?
            /// Where the previous context's code last used the instance before this step (for a method, the
            /// line that called it), as a `site`; absent when unknown, and in files of runtimes before it.
            var letGo: Site?
        }

        struct Instance: Decodable, Sendable {
            var serial: Int
            var steps: [Step]
            var stepsDropped: Int
        }

        /// One type as the file lists it (what the core's store kept of it); ``Store`` merges it across
        /// files into a ``Store/TypeEntry``.
        struct TypeEntry: Decodable, Sendable {
            var type: String
            var module: String?
            var record: Record
            var instances: Counts?
            var members: [Member]
            var instanceSteps: [Instance]
        }

        var format: String
        var version: Int
        /// How the writing runtime placed a use (absent in files of runtimes before the rule):
        /// ``innermostSerial`` when a use inside `q.sync {}` is q's, not the calling thread's.
        var resolution: String?
        var process: Process?
        var limits: Limits
        var contexts: [Context]
        var types: [TypeEntry]

        /// Reads and validates one file.
        /// - Parameter path: The file's path, named in every error.
        /// - Throws: ``AuditError`` naming the file and what is wrong with it.
        static func load(path: String) throws -> File {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw AuditError("cannot read observation file '\(path)'")
            }
            // The header first: a file of another format or a newer version is named as such, not as a
            // decoding failure deep inside.
            try VersionedJSON.checkHeader(data, path: path, format: format, supportedVersion: supportedVersion)
            let file: File
            do {
                file = try JSONDecoder().decode(File.self, from: data)
            } catch let error as DecodingError {
                throw AuditError("malformed observation file '\(path)': \(VersionedJSON.describe(error))")
            }
            try file.validate(path: path)
            return file
        }

        private func validate(path: String) throws {
            func fail(_ message: String) -> AuditError {
                AuditError("malformed observation file '\(path)': \(message)")
            }
            var ids = Set<Int>()
            for context in contexts where !ids.insert(context.id).inserted {
                throw fail("context id \(context.id) is listed twice")
            }
            for type in types {
                func check(_ id: Int, _ place: String) throws {
                    guard ids.contains(id) else { throw fail("type '\(type.type)': \(place) names context \(id), which 'contexts' does not list") }
                }
                switch type.record.kind {
                case "observed":
                    // Without `createdAt` (the writer found no user frame) the conclusion stands; `apply` says
                    // it has no line to rewrite.
                    break
                case "declared":
                    guard let owner = type.record.owner else { throw fail("type '\(type.type)': a declared record needs 'owner'") }
                    try check(owner, "'record.owner'")
                default:
                    throw fail("type '\(type.type)': unknown record kind '\(type.record.kind)'; expected 'observed' or 'declared'")
                }
                for member in type.members {
                    for use in member.contexts { try check(use.context, "member '\(member.member)'") }
                }
                for instance in type.instanceSteps {
                    for step in instance.steps { try check(step.context, "a step of instance \(instance.serial)") }
                }
            }
        }
    }
}

/// Checks of the `format` and `version` keys shared by the observation and proposal readers.
enum VersionedJSON {
    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    /// Throws unless `data` is a JSON object of `format` at a version this reader knows.
    static func checkHeader(_ data: Data, path: String, format: String, supportedVersion: Int) throws {
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw AuditError("'\(path)' is not a \(format) file: not a JSON object (\(describe(error)))")
        }
        guard header.format == format else {
            let found = header.format.map { "'\($0)'" } ?? "no \"format\" key"
            throw AuditError("'\(path)' is not a \(format) file: found \(found)")
        }
        guard let version = header.version else {
            throw AuditError("malformed \(format) file '\(path)': no \"version\" key")
        }
        guard version <= supportedVersion else {
            throw AuditError(
                "'\(path)' is \(format) version \(version); this schedule-audit-tool reads up to version \(supportedVersion): update Schedulable"
            )
        }
    }

    /// A decoding error as one line: what is wrong and where (`types[0].record`).
    static func describe(_ error: Error) -> String {
        func place(_ path: [CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "missing key '\(key.stringValue)' in \(place(context.codingPath))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "wrong value at \(place(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context)?:
            return "\(context.debugDescription) at \(place(context.codingPath))"
        default:
            return "\(error)"
        }
    }
}
