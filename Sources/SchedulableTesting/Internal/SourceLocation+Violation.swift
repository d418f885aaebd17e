import Schedulable
import Testing

extension Testing.SourceLocation {
    /// Where an issue for `violation` should point: its failure site (for a method guard the line that
    /// called the method, for a property the access site), else the call site, else where the owner was
    /// bound, else the test itself.
    ///
    /// The access site has the source file's full path from the debug information, so IDEs jump to the
    /// bad line. The other locations carry `#fileID` only: when the file is the test's own, the test's full
    /// path is used; otherwise the file ID stands in for the path.
    ///
    /// - Parameters:
    ///   - violation: The violation.
    ///   - testLocation: The test's location, the fallback and the source of a full path.
    init(bestFor violation: ConfinementViolation, near testLocation: Testing.SourceLocation) {
        if let site = ViolationIssueLocation(violation), site.isFullPath {
            self.init(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column ?? 1)
            return
        }
        guard let best = violation.callSite ?? violation.ownerBoundAt, best.line > 0,
            best.fileID.contains("/")
        else {
            self = testLocation
            return
        }
        let path = best.fileID == testLocation.fileID ? testLocation.filePath : best.fileID
        self.init(fileID: best.fileID, filePath: path, line: best.line, column: 1)
    }
}

/// Where a test failure for a violation points, for both test frameworks: the failure site
/// (``ConfinementViolation/failureSite``: for a method guard the line that called the guarded method,
/// for a property the access site; its full path from the debug information), else the call site or
/// bind site (`#fileID` standing in for the path).
struct ViolationIssueLocation {
    var fileID: String
    var filePath: String
    var line: Int
    /// The column, where the debug information gives the failure site one.
    var column: Int?
    /// Whether `filePath` is a real path (from the debug information), not a `#fileID`.
    var isFullPath: Bool

    init?(_ violation: ConfinementViolation) {
        if let site = violation.failureSite, let path = site.file, let line = site.line, line > 0,
            let fileID = site.fileID, fileID.contains("/")
        {
            self.init(fileID: fileID, filePath: path, line: line, column: site.column, isFullPath: true)
        } else if let location = violation.callSite ?? violation.ownerBoundAt {
            self.init(fileID: location.fileID, filePath: location.fileID, line: location.line, column: nil, isFullPath: false)
        } else {
            return nil
        }
    }

    private init(fileID: String, filePath: String, line: Int, column: Int?, isFullPath: Bool) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
        self.isFullPath = isFullPath
    }
}
