extension StringProtocol {
    /// Whether `text` occurs in this string, compared as UTF-8 bytes.
    ///
    /// Without Foundation, `contains(_: String)` is `_StringProcessing`'s, which needs macOS 13: above
    /// the package's floor (macOS 10.15), which the audit plugin's tool is built for too.
    func hasSubstring(_ text: String) -> Bool {
        let bytes = Array(utf8), wanted = Array(text.utf8)
        guard bytes.count >= wanted.count else { return false }
        return (0...(bytes.count - wanted.count)).contains { start in
            bytes[start..<(start + wanted.count)].elementsEqual(wanted)
        }
    }
}
