import Foundation
import ScheduleAuditCore

// The executable the `schedule-audit` plugin runs; everything but process I/O lives in
// ScheduleAuditCore (`AuditCommand.main(arguments:)`) so that it can be unit-tested.
let result = AuditCommand.main(arguments: Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.status)
