extension ConfinementViolation {
    /// The violation as one line of JSON (schema `schedulable.violation`, version 4; see the Reporting
    /// Violations article), ending in a newline: the schema, the level, ``fields``, and the text report
    /// as `message`.
    ///
    /// Version 4: every code location is `{"fileID", "line"}` (frames add `"column"` and `"path"`); the
    /// call site is `callSite`, no longer `path` and `line` at the top level; `qualifiedMember` and
    /// `history` are in the swift-log adapter's metadata too, since both render ``fields``.
    ///
    /// - Parameter level: The level the process-wide policy gave the violation, when known.
    /// - Returns: The JSON object and a newline.
    package func jsonLine(level: ConfinementLevel? = nil) -> String {
        var entries: [(String, String)] = [("schema", JSON.string("schedulable.violation")), ("version", "4")]
        if let level { entries.append(("level", JSON.string(level.rawValue))) }
        entries += fields.map { ($0.name, $0.value.json) }
        entries.append(("message", JSON.string(description)))
        return JSON.object(entries) + "\n"
    }
}

/// The few JSON pieces the library writes, without Foundation.
enum JSON {
    /// An object of `fields`, each value already JSON, in the order given.
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
