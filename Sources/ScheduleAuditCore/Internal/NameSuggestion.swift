/// Suggests the member an option entry probably meant.
enum NameSuggestion {
    /// The candidate with the same base name (`reset` for `reset()`), else the nearest within two edits.
    static func closest(to name: String, in candidates: [String]) -> String? {
        let base = name.split(separator: "(").first.map(String.init) ?? name
        if let sameBase = candidates.first(where: { $0.split(separator: "(").first.map(String.init) == base }) {
            return sameBase
        }
        let scored = candidates.map { ($0, editDistance(name, $0)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance; names are short, so the quadratic table is fine.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
