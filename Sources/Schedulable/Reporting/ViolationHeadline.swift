/// A violation's headline: the one line the violating thread writes itself, with one `write`, before the
/// report is handed to the reporting thread, so that a report waiting there is never the only copy.
/// Whatever ends the process (`SIGKILL`, or `SIGTERM` and `SIGINT`, which are the app's to handle and
/// which the library never takes) the headline is on standard error, and in the JSON Lines file when
/// that sink is set; the full report follows it when the process lives long enough.
///
/// A headline says what is known on the violating thread without symbolicating anything and without a
/// lock the reporting thread holds while it symbolicates or writes: the kind, the type and member, the
/// expected owner, the actual context, and the site where it is known (a method guard's or a scheduling
/// call's own line, a site set by code, or the line of a stack seen before). It is numbered (`[3]`), and
/// the report that follows names that number in its first line instead of repeating the headline
/// (`Schedulable: report of [3] above`); when something else was written between them, the first line
/// says what the report is about too.
///
/// `SCHEDULABLE_HEADLINES=off` turns headlines off (for measuring what they cost; a killed process then
/// loses what was waiting).
package enum ViolationHeadlines {
    /// Whether headlines are written in this process: `SCHEDULABLE_HEADLINES` is not `off`. Read once.
    package static let areEnabled = StandardError.environmentValue("SCHEDULABLE_HEADLINES") != "off"

    /// The last number given to a headline; numbers start at 1.
    private static let lastNumber = AtomicCell()

    /// A new headline number.
    static func nextNumber() -> UInt { lastNumber.add(1) }

    /// `entry`, as the reporting thread writes it after headline `number`: a whole report's first line
    /// names the headline (and, when the headline is not the last line written, what the report is
    /// about); a one-line entry is left as it is.
    ///
    /// - Parameters:
    ///   - entry: The entry a handler built, newline-terminated.
    ///   - number: The headline written for it, if any.
    ///   - adjacent: Whether the headline is the last line written to the entry's output.
    /// - Returns: The entry to write.
    static func entry(_ entry: String, after number: UInt?, adjacent: Bool) -> String {
        guard let number, let end = entry.firstIndex(of: "\n"), entry.index(after: end) != entry.endIndex else {
            return entry
        }
        let rest = entry[entry.index(after: end)...]
        let reference = "Schedulable: report of [\(number)] above"
        guard !adjacent else { return reference + "\n" + rest }
        let first = entry[..<end]
        let about = first.hasPrefix("Schedulable: ") ? first.dropFirst("Schedulable: ".count) : first
        return reference + ": " + about + "\n" + rest
    }
}

extension ConfinementViolation {
    /// The headline numbered `number` (see ``ViolationHeadlines``): one line, escaped like the report's.
    ///
    /// - Parameters:
    ///   - number: The headline's number.
    ///   - count: How many times the violation's stack has been seen by the handler, this one included.
    ///   - site: The site as known on the violating thread, if known.
    /// - Returns: The line, newline-terminated.
    func headline(number: UInt, count: Int, site: String?) -> String {
        let again = count > 1 ? " again (\(count) times from this call path)" : ""
        let note = tier == .note ? "note: " : ""
        return Self.escapedReportLine(
            "Schedulable: [\(number)] \(note)\(kindTitle): \(summaryLine)\(again); expected owner: \(expectedOwner); "
                + "actual context: \(actualContext); " + (site.map { "at \($0)" } ?? "access site not yet symbolicated")
        ) + "\n"
    }

    /// The headline as one JSON Lines record (schema `schedulable.violation.headline`, version 1): the
    /// headline's number and its path's count, the level, the full record's first fields (``fields``,
    /// those known where the violation was made), its `callSite`, and the site as the text gives it.
    ///
    /// - Parameters:
    ///   - number: The headline's number, as the text's `[n]`.
    ///   - count: As for ``headline(number:count:site:)``.
    ///   - site: As for ``headline(number:count:site:)``.
    ///   - level: The level the handler gave the violation.
    /// - Returns: The JSON object and a newline.
    func headlineJSONLine(number: UInt, count: Int, site: String?, level: ConfinementLevel) -> String {
        var entries: [(String, String)] = [
            ("schema", JSON.string("schedulable.violation.headline")), ("version", "1"),
            ("headline", String(number)), ("count", String(count)), ("level", JSON.string(level.rawValue)),
        ]
        entries += fieldsKnownWhereMade.map { ($0.name, $0.value.json) }
        if let callSite { entries.append(("callSite", FieldValue.location(callSite).json)) }
        if let site { entries.append(("site", JSON.string(site))) }
        return JSON.object(entries) + "\n"
    }

    /// The site as the violating thread knows it without symbolicating: the call site (a method guard's
    /// or scheduling call's line), else a site set by code, else the line of a stack seen before
    /// (`known`, from ``knownAccessSiteKey``); `nil` when only symbols would tell.
    ///
    /// - Parameter known: The violation's ``knownAccessSiteKey``.
    func siteKnownWithoutSymbols(_ known: AnyHashable??) -> String? {
        if let callSite { return callSite.description }
        if case .explicit(let site, _) = access { return site?.description }
        switch (known ?? nil)?.base as? SiteKey {
        case .line(let path, let line)?: return "\(CallStack.fileName(of: path)):\(line)"
        case .address(let address)?: return "address 0x" + String(address, radix: 16)
        case nil: return nil
        }
    }
}

/// Where a handler's headlines go: standard error for the handlers that print there, or what a test
/// gives.
package struct HeadlineOutput: Sendable {
    /// Writes one headline (newline-terminated) with its number, on the violating thread.
    let write: @Sendable (_ line: String, _ number: UInt) -> Void
    /// The number of the headline written last to the handler's output, when nothing followed it; else 0.
    let lastWritten: @Sendable () -> UInt
    /// Whether the process's JSON Lines sink (`SCHEDULABLE_CONFINEMENT_JSONL`) gets each headline too.
    let writesJSONLines: Bool

    /// A test's output.
    package init(
        write: @escaping @Sendable (_ line: String, _ number: UInt) -> Void,
        lastWritten: @escaping @Sendable () -> UInt, writesJSONLines: Bool = false
    ) {
        self.write = write
        self.lastWritten = lastWritten
        self.writesJSONLines = writesJSONLines
    }

    /// Standard error, and the JSON Lines sink when it is set.
    package static let standardError = HeadlineOutput(
        write: { StandardError.writeHeadline($0, number: $1) }, lastWritten: { StandardError.lastHeadlineWritten },
        writesJSONLines: true
    )
}
