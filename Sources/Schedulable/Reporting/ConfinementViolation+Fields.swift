extension ConfinementViolation {
    /// A report field's value: what the JSON Lines line writes for it and what a log handler's
    /// metadata carries.
    ///
    /// Public because a handler that forwards reports elsewhere (the swift-log adapter) renders it.
    public indirect enum FieldValue: Sendable, Hashable {
        /// Text.
        case string(String)
        /// A whole number: a line, a count, a thread id, a duration in nanoseconds.
        case integer(Int64)
        /// Yes or no.
        case boolean(Bool)
        /// Named values, in their order.
        case object([Field])
        /// Values, in their order.
        case array([FieldValue])
    }

    /// One field of a report: its name, its value, and the lines the text report gives it.
    ///
    /// Public because ``ConfinementViolation/fields`` is how a handler reads everything a report says.
    public struct Field: Sendable, Hashable {
        /// The field's name: its key in the JSON Lines line and in a log handler's metadata.
        public let name: String
        /// Its value.
        public let value: FieldValue
        /// The text report's lines for it, each already labelled; empty where the text report shows the
        /// field elsewhere (the headline says the kind) or not at all.
        package let textLines: [String]

        package init(_ name: String, _ value: FieldValue, textLines: [String] = []) {
            self.name = name
            self.value = value
            self.textLines = textLines
        }

        package init(_ name: String, _ value: FieldValue, label: String, text: String) {
            self.init(name, value, textLines: [Self.line(label, text)])
        }

        package init(_ name: String, _ string: String, label: String? = nil) {
            self.init(name, .string(string), textLines: label.map { [Self.line($0, string)] } ?? [])
        }

        /// A text report line: the label and a colon in a column 17 characters wide, then `text`.
        package static func line(_ label: String, _ text: String) -> String {
            let head = label.isEmpty ? "" : label + ":"
            return "  " + head + String(repeating: " ", count: max(1, 17 - head.count)) + text
        }
    }

    /// Everything the report says but its headline, in the order the text report prints it: the one
    /// list that the text report (``description``), the JSON Lines line and the swift-log adapter's
    /// metadata render, so a field added here reaches all three.
    ///
    /// Code locations have one shape everywhere: `{"fileID", "line"}`, with `"column"` and `"path"` (the
    /// file as the debug information records it) where a stack frame knows them. Reading the
    /// `accessSite` field symbolicates the stack, so the printing handlers read this on the reporting
    /// thread, not where the violation was made.
    public var fields: [Field] {
        var fields = fieldsKnownWhereMade
        if let ownerActivity {
            fields.append(Field("ownerActivity", ownerActivity.value, label: "owner was", text: "\(ownerActivity)"))
        }
        if let intruder { fields.append(Field("intruder", intruder.value, label: "intruder", text: "\(intruder)")) }
        if let accessSite { fields.append(Field("accessSite", accessSite.value, label: "access site", text: "\(accessSite)")) }
        if let ownerBoundAt {
            fields.append(Field("ownerBoundAt", .location(ownerBoundAt), label: "owner bound at", text: "\(ownerBoundAt)"))
        }
        if let callSite { fields.append(Field("callSite", .location(callSite), label: "call site", text: "\(callSite)")) }
        if let detail { fields.append(Field("detail", detail, label: "detail")) }
        if let history { fields.append(Field("history", history.value, textLines: history.reportLines)) }
        let stack = self.stack
        if !stack.isEmpty { fields.append(Field("stack", .array(stack.map(\.value)), textLines: Self.stackLines(stack))) }
        return fields
    }

    /// The first of ``fields``: what happened, to what, expected where and done where. Known where the
    /// violation was made, without symbols: a headline says them (``ViolationHeadlines``).
    var fieldsKnownWhereMade: [Field] {
        var fields = [Field("kind", kind.rawValue), Field("tier", String(describing: tier))]
        if let objectType {
            let text = objectType + (objectIdentity.map { " (\($0))" } ?? "")
            fields.append(Field("typeName", .string(objectType), label: "object", text: text))
        }
        if let objectIdentity { fields.append(Field("objectIdentity", objectIdentity)) }
        fields.append(Field("member", member, label: "member"))
        fields.append(Field("qualifiedMember", qualifiedMember))
        fields.append(Field("expectedOwner", expectedOwner, label: "expected owner"))
        fields.append(Field("actualContext", actualContext, label: "actual context"))
        return fields
    }

    /// The text report's stack lines: `#0 function at App/main.swift:14`, the first one labelled.
    static func stackLines(_ frames: [StackFrame]) -> [String] {
        frames.enumerated().map { index, frame in
            let place = frame.fileID.flatMap { name in frame.line.map { " at \(name):\($0)" } }
                ?? frame.image.map { " in \($0)" } ?? ""
            return Field.line(index == 0 ? "stack" : "", "#\(index) \(frame.function)\(place)")
        }
    }
}

extension ConfinementViolation.FieldValue {
    /// A code location in the one shape every JSON the package writes uses: `{"fileID", "line"}`.
    package static func location(_ location: CodeLocation) -> Self {
        .object([.init("fileID", location.fileID), .init("line", .integer(Int64(location.line)))])
    }

    /// `value` as an ``integer(_:)``, clamped to its range.
    static func number<Value: BinaryInteger>(_ value: Value) -> Self { .integer(Int64(clamping: value)) }

    /// The value as JSON.
    var json: String {
        switch self {
        case .string(let text): return JSON.string(text)
        case .integer(let number): return String(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .object(let fields): return JSON.object(fields.map { ($0.name, $0.value.json) })
        case .array(let values): return "[" + values.map(\.json).joined(separator: ",") + "]"
        }
    }
}

extension [ConfinementViolation.Field] {
    /// Appends a field named `name` when `value` is there.
    mutating func append(_ name: String, _ value: ConfinementViolation.FieldValue?) {
        if let value { append(ConfinementViolation.Field(name, value)) }
    }
}
