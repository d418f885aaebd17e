extension ConfinementViolation {
    /// The violation as one line of JSON (schema `schedulable.violation`, version 3; see the Reporting
    /// Violations article), ending in a newline.
    ///
    /// Version 2: `member` names a `@Confined` property by its name (version 1 gave its declaration site
    /// unless the property had a `name:`), and the `accessSite` and `stack` fields were added. Version 3:
    /// `ownerActivity` and `intruder`, the two sides of a wrong-context violation.
    ///
    /// Field names follow the audit's JSON where they mean the same thing (`kind`, `typeName`, `member`,
    /// `path`, `line`, `message`), so one collector reads both.
    ///
    /// - Parameter level: The level the process-wide policy gave the violation, when known.
    /// - Returns: The JSON object and a newline.
    public func jsonLine(level: ConfinementLevel? = nil) -> String {
        var fields: [(String, String)] = [
            ("schema", JSON.string("schedulable.violation")),
            ("version", "3"),
            ("kind", JSON.string(kind.rawValue)),
            ("tier", JSON.string(String(describing: tier))),
        ]
        if let level { fields.append(("level", JSON.string(level.rawValue))) }
        if let objectType { fields.append(("typeName", JSON.string(objectType))) }
        if let objectIdentity { fields.append(("objectIdentity", JSON.string(objectIdentity))) }
        fields.append(("member", JSON.string(member)))
        fields.append(("qualifiedMember", JSON.string(qualifiedMember)))
        fields.append(("expectedOwner", JSON.string(expectedOwner)))
        fields.append(("actualContext", JSON.string(actualContext)))
        if let callSite {
            fields.append(("path", JSON.string(callSite.fileID)))
            fields.append(("line", String(callSite.line)))
        }
        if let accessSite { fields.append(("accessSite", JSON.frame(accessSite))) }
        if let ownerBoundAt { fields.append(("ownerBoundAt", JSON.location(ownerBoundAt))) }
        if let detail { fields.append(("detail", JSON.string(detail))) }
        if let history { fields.append(("history", history.json)) }
        if let ownerActivity { fields.append(("ownerActivity", ownerActivity.json)) }
        if let intruder { fields.append(("intruder", intruder.json)) }
        let stack = self.stack
        if !stack.isEmpty { fields.append(("stack", "[" + stack.map(JSON.frame).joined(separator: ",") + "]")) }
        fields.append(("message", JSON.string(description)))
        return JSON.object(fields) + "\n"
    }
}

/// The few JSON pieces the library writes, without Foundation.
enum JSON {
    /// An object of `fields`, each value already JSON, in the order given.
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A code location as `{"path": …, "line": …}`.
    static func location(_ location: CodeLocation) -> String {
        "{\"path\":\(string(location.fileID)),\"line\":\(location.line)}"
    }

    /// A stack frame as `{"function": …, "path": …?, "line": …?, "fileID": …?, "image": …?}`.
    static func frame(_ frame: ConfinementViolation.StackFrame) -> String {
        var fields = [("function", string(frame.function))]
        if let file = frame.file { fields.append(("path", string(file))) }
        if let line = frame.line { fields.append(("line", String(line))) }
        if let fileID = frame.fileID { fields.append(("fileID", string(fileID))) }
        if let image = frame.image { fields.append(("image", string(image))) }
        return object(fields)
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
