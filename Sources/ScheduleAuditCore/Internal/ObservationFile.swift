import Foundation

/// The part of an observation file (format `schedulable-observations`, version 1, written by the core
/// library at process exit) that `claims` reads: contexts, and per type its record kind, members and
/// the steps of each kept instance. Unknown keys are ignored, as the format asks of readers.
///
/// A small reader of its own, so that `claims` stands alone; `propose` reads the same files more fully.
struct ObservationFile: Decodable, Sendable {
    static let format = "schedulable-observations"
    static let newestVersion = 1

    struct Context: Decodable, Sendable {
        var id: Int
        var kind: String
        var label: String
    }

    struct Site: Decodable, Sendable {
        var file: String
        var line: Int
        var function: String?
    }

    struct Step: Decodable, Sendable {
        var context: Int
        var member: String?
        var site: Site?
    }

    struct Instance: Decodable, Sendable {
        var serial: Int
        var steps: [Step]
        var stepsDropped: Int?
    }

    struct MemberContext: Decodable, Sendable {
        var context: Int
        var site: Site?
    }

    struct Member: Decodable, Sendable {
        var member: String
        var contexts: [MemberContext]
    }

    struct Record: Decodable, Sendable {
        var kind: String
        /// The declared owner's context (`declared` records only).
        var owner: Int?
        var boundAt: Site?
    }

    struct ObservedType: Decodable, Sendable {
        var type: String
        var module: String?
        var record: Record
        // `instances` (counts) is not read: the kept steps are the evidence, and its keys changed
        // between the format note and the writer (`seen`/`dropped`, `kept`/`droppedSteps`).
        var members: [Member]
        var instanceSteps: [Instance]
    }

    var format: String
    var version: Int
    var contexts: [Context]
    var types: [ObservedType]

    /// Where the file was read from, for messages.
    var path = ""

    private enum CodingKeys: String, CodingKey {
        case format, version, contexts, types
    }

    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    /// Reads and checks one file.
    ///
    /// - Throws: ``AuditError`` naming the file: unreadable, not JSON, another format, a newer version,
    ///   or a required key missing or of the wrong type.
    static func load(path: String) throws -> Self {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AuditError("cannot read observation file '\(path)'")
        }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw AuditError("'\(path)' is not a JSON object; expected an observation file (format '\(format)')")
        }
        guard header.format == format else {
            throw AuditError("'\(path)' is not an observation file: its format is \(header.format.map { "'\($0)'" } ?? "missing"), expected '\(format)'")
        }
        guard let version = header.version, version <= newestVersion else {
            throw AuditError("'\(path)' has observation format version \(header.version.map(String.init) ?? "(missing)"); this tool reads versions up to \(newestVersion)")
        }
        do {
            var file = try decoder.decode(Self.self, from: data)
            file.path = path
            return file
        } catch let DecodingError.keyNotFound(key, context) {
            throw AuditError("'\(path)' is malformed: key '\(key.stringValue)' is missing at \(Self.describe(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw AuditError("'\(path)' is malformed at \(Self.describe(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw AuditError("'\(path)' is malformed: \(error)")
        }
    }

    private static func describe(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    /// The files a list of `--observations` arguments names: a file itself, a directory every `*.json`
    /// directly in it (sorted).
    static func load(arguments: [String]) throws -> [Self] {
        try arguments.flatMap { argument -> [Self] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw AuditError("no observation file or directory at '\(argument)'")
            }
            guard isDirectory.boolValue else { return [try load(path: argument)] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
            let files = names.filter { $0.hasSuffix(".json") }.sorted()
            guard !files.isEmpty else { throw AuditError("no '*.json' observation files in '\(argument)'") }
            return try files.map { try load(path: (argument as NSString).appendingPathComponent($0)) }
        }
    }

    /// How a context reads in a message: `main thread`, `scheduler 'com.app.uploads'`, `task 17`.
    func describe(context id: Int) -> String {
        guard let context = contexts.first(where: { $0.id == id }) else { return "context \(id)" }
        switch context.kind {
        case "main", "task": return context.label
        case "pool": return "pool thread '\(context.label)'"
        default: return "\(context.kind) '\(context.label)'"
        }
    }

    /// The kind of a context (`main`, `scheduler`, `queue`, `pool`, `task`, `thread`), or `""`.
    func kind(of id: Int) -> String {
        contexts.first { $0.id == id }?.kind ?? ""
    }
}

extension ObservationFile.Site? {
    /// `App/Queue.swift:40 (enqueue(_:))`, or `an unknown site` when no user frame was found.
    var described: String {
        guard let site = self else { return "an unknown site" }
        return "\(site.file):\(site.line)" + (site.function.map { " (\($0))" } ?? "")
    }
}
