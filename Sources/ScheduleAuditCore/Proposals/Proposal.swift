import Foundation

/// What `schedule-audit-tool propose` writes and `apply` reads: one conclusion per observed type, with its
/// evidence (format `schedulable-proposal`, version 2 — version 1 spelt a site's file `file`, still read —; documented in the "Proposing Owners" article).
struct Proposal: Codable, Sendable {
    /// The `format` value of every proposal file.
    static let format = "schedulable-proposal"
    /// The version this tool writes, and the newest it reads.
    static let currentVersion = 2

    /// A conclusion: what the observations say about one type's owner.
    enum Conclusion: String, Codable, Sendable, CaseIterable {
        /// Every instance used from one scheduler, queue or thread.
        case owner
        /// Every instance used only on the main thread.
        case main
        /// Each instance stays in the context that first used it, and instances differ.
        case firstUser = "first-user"
        /// Instances move A → B (→ C …) and never return to an earlier context.
        case handOff = "hand-off"
        /// An instance returns to an earlier context, or is used from a pool or several tasks.
        case notConfinable = "not-confinable"
        /// Not enough evidence for any of the above.
        case insufficient
        /// A declared owner was missed (observed at the `observe` level).
        case contradicted
    }

    /// A site with the context and member used there.
    struct Use: Codable, Hashable, Sendable {
        var context: Observation.Context
        var member: String
        var site: Observation.Site?
    }

    /// One move of an instance from a context to the next, at the first use in the new one.
    struct HandOff: Codable, Hashable, Sendable {
        var from: Observation.Context
        var to: Observation.Context
        var member: String
        var site: Observation.Site?
        /// A move no `handOff(to:)` made: the line where every instance making it was last used in
        /// `from` (the runs' `letGo`, one line for all), after which `apply` inserts the hand-off.
        /// Absent in older proposals.
        var letGo: Observation.Site? = nil
        /// A move no `handOff(to:)` made, without ``letGo``: why the hand-off cannot be placed
        /// (instances let go at different lines, or the run did not record where).
        var unplaced: String? = nil
    }

    /// The instance counts a conclusion rests on.
    struct Instances: Codable, Equatable, Sendable {
        /// Instances with at least one step, over every file.
        var seen: Int
        /// Instances beyond the per-type limit: their steps were not kept (0 when the files do not count them).
        var dropped: Int
        /// Steps of instances beyond the per-type limit: counted, not kept.
        var droppedSteps: Int
        /// Kept instances whose steps were cut at the per-instance limit.
        var cut: Int
    }

    /// One type's conclusion.
    struct Entry: Codable, Sendable {
        var type: String
        var module: String?
        var conclusion: Conclusion
        /// `observed` or `declared`.
        var record: String
        /// The `Confinement.observed()` line (observed records): what `apply` rewrites.
        var createdAt: Observation.File.Location?
        /// The bind site of a declared owner.
        var boundAt: Observation.File.Location?
        /// `owner`, `main`: the owner; `hand-off`: the first context (absent when instances start in
        /// different contexts); `contradicted`: the declared owner.
        var owner: Observation.Context?
        /// `hand-off`: each distinct move, with the site of the first use after it.
        var handOffs: [HandOff] = []
        /// `owner`, `main`, `first-user`, `hand-off`: moves without a `handOff(to:)` that only some
        /// instances made; the proposed record will report them (a bug, or a hand-off to write).
        var strayMoves: [HandOff] = []
        /// `not-confinable`: the two uses that conflict; `contradicted`: each miss (context, member, first
        /// site); `first-user`: the first use of each context.
        var uses: [Use] = []
        /// Methods whose guard ran outside the owner while their members ran inside it (their bodies
        /// hop): each with its guard's first site, which `apply` removes. Absent in older proposals.
        var entryPoints: [Use]?
        var instances: Instances
        /// Whether the conclusion rests on a sample (instances, steps or member contexts were dropped).
        var sampled: Bool
        /// The evidence in sentences, as the table prints it.
        var evidence: [String]

        /// `App.UploadQueue`, or the bare type name when the module is unknown.
        var qualifiedName: String {
            (module.map { "\($0)." } ?? "") + type
        }
    }

    var format = Proposal.format
    var version = Proposal.currentVersion
    /// The observation files merged, sorted.
    var observations: [String]
    /// One entry per type, sorted by type name.
    var types: [Entry]

    /// The proposal as JSON: pretty-printed, keys sorted, ending in a newline.
    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Plain structs of strings, integers and booleans: encoding cannot fail.
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    /// Reads a proposal file.
    /// - Parameter path: The file, named in errors.
    /// - Throws: ``AuditError`` when it cannot be read, is of another format or a newer version, or is malformed.
    static func load(path: String) throws -> Proposal {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AuditError("cannot read proposal file '\(path)'")
        }
        try VersionedJSON.checkHeader(data, path: path, format: format, supportedVersion: currentVersion)
        do {
            return try JSONDecoder().decode(Proposal.self, from: data)
        } catch {
            throw AuditError("malformed proposal file '\(path)': \(VersionedJSON.describe(error))")
        }
    }
}

extension Proposal.Entry {
    /// The key an earlier version wrote the conclusion under (`"verdict"`).
    private enum EarlierKeys: String, CodingKey {
        case verdict
    }

    /// Reads an entry as this version writes it, or as an earlier one did: the conclusion under
    /// `conclusion`, else under `verdict`, so that `apply` still reads a proposal made before the rename.
    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        type = try keys.decode(String.self, forKey: .type)
        module = try keys.decodeIfPresent(String.self, forKey: .module)
        if let conclusion = try keys.decodeIfPresent(Proposal.Conclusion.self, forKey: .conclusion) {
            self.conclusion = conclusion
        } else {
            conclusion = try decoder.container(keyedBy: EarlierKeys.self).decode(Proposal.Conclusion.self, forKey: .verdict)
        }
        record = try keys.decode(String.self, forKey: .record)
        createdAt = try keys.decodeIfPresent(Observation.File.Location.self, forKey: .createdAt)
        boundAt = try keys.decodeIfPresent(Observation.File.Location.self, forKey: .boundAt)
        owner = try keys.decodeIfPresent(Observation.Context.self, forKey: .owner)
        handOffs = try keys.decode([Proposal.HandOff].self, forKey: .handOffs)
        strayMoves = try keys.decode([Proposal.HandOff].self, forKey: .strayMoves)
        uses = try keys.decode([Proposal.Use].self, forKey: .uses)
        entryPoints = try keys.decodeIfPresent([Proposal.Use].self, forKey: .entryPoints)
        instances = try keys.decode(Proposal.Instances.self, forKey: .instances)
        sampled = try keys.decode(Bool.self, forKey: .sampled)
        evidence = try keys.decode([String].self, forKey: .evidence)
    }
}
