/// What one side (the parser or the audit's front end) says about a file: facts keyed by what they
/// are about and where it starts, each a few named fields.
///
/// Both sides write the same keys and fields, so the comparison is a plain diff of two dictionaries: a
/// key only one side has is a declaration the other missed (or invented), a field that differs is a
/// misreading. Positions are 0-based lines and UTF-8 columns, the front end's convention.
struct Facts {
    /// `type 12:4` (the keyword), `member 14:8` (the first attribute, modifier or keyword),
    /// `statements 20:31` (a body's `{`), `implicit 20:31`.
    var entries: [String: [String: String]] = [:]

    mutating func add(_ key: String, _ fields: [String: String]) {
        entries[key, default: [:]].merge(fields) { _, new in new }
    }
}

/// A 0-based position, printed `line:column` (1-based when shown to a person, as compilers print).
struct Position: Hashable, Comparable {
    var line: Int
    var column: Int

    var key: String { "\(line):\(column)" }

    static func < (lhs: Position, rhs: Position) -> Bool { (lhs.line, lhs.column) < (rhs.line, rhs.column) }
}

/// One difference between the parser's facts and the front end's.
struct Disagreement {
    var path: String
    var key: String
    var field: String
    var parser: String
    var frontEnd: String

    /// The kind of fact and the field: how disagreements are counted (`member kind`, `type missing`).
    var category: String { "\(key.split(separator: " ").first ?? "") \(field)" }

    /// `path:line:column: member modifiers: parser [private(set)] · front end []` (1-based position).
    var rendered: String {
        let parts = key.split(separator: " ")
        var site = path
        if parts.count == 2 {
            let numbers = parts[1].split(separator: ":").compactMap { Int($0) }
            if numbers.count == 2 { site += ":\(numbers[0] + 1):\(numbers[1] + 1)" }
        }
        return "\(site): \(category): parser \(parser) · front end \(frontEnd)"
    }
}

extension Facts {
    /// The differences between the parser's facts (`self`) and the front end's.
    func disagreements(with frontEnd: Facts, path: String) -> [Disagreement] {
        var found: [Disagreement] = []
        for key in Set(entries.keys).union(frontEnd.entries.keys).sorted() {
            switch (entries[key], frontEnd.entries[key]) {
            case (let parser?, nil):
                found.append(Disagreement(path: path, key: key, field: "missing", parser: Self.describe(parser), frontEnd: "none"))
            case (nil, let mine?):
                found.append(Disagreement(path: path, key: key, field: "extra", parser: "none", frontEnd: Self.describe(mine)))
            case (let parser?, let mine?):
                for field in Set(parser.keys).union(mine.keys).sorted() where parser[field] != mine[field] {
                    found.append(Disagreement(path: path, key: key, field: field, parser: parser[field] ?? "-", frontEnd: mine[field] ?? "-"))
                }
            case (nil, nil):
                break
            }
        }
        return found
    }

    private static func describe(_ fields: [String: String]) -> String {
        "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "}"
    }
}
