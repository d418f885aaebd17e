import Schedulable
import Testing

extension Testing.SourceLocation {
    /// Where an issue for `violation` should point: the call site, else where the owner was bound, else
    /// the test itself.
    ///
    /// Reports carry `#fileID` only. When the file is the test's own, the test's full path is used so
    /// that IDEs can jump to it; otherwise the file ID stands in for the path.
    ///
    /// - Parameters:
    ///   - violation: The violation.
    ///   - testLocation: The test's location, the fallback and the source of a full path.
    init(bestFor violation: ConfinementViolation, near testLocation: Testing.SourceLocation) {
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
