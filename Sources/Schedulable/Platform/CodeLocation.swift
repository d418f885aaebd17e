/// A place in the source: a file (as `#fileID` spells it) and a line.
public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` spells it (`Module/File.swift`).
    public var fileID: String
    /// The line.
    public var line: Int

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - fileID: The file, as `#fileID` spells it.
    ///   - line: The line.
    package init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    @usableFromInline
    init(file: StaticString, line: UInt) {
        self.init(fileID: String(describing: file), line: Int(line))
    }

    /// `Module/File.swift:42`.
    public var description: String { "\(fileID):\(line)" }
}
