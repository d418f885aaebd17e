import Foundation
import ScheduleAuditCore

// The executable the `schedule-audit` plugin runs; everything but process I/O lives in
// ScheduleAuditCore so that it can be unit-tested.
do {
    let command = try AuditCommand(arguments: Array(CommandLine.arguments.dropFirst()))
    let (output, status) = try command.run()
    FileHandle.standardOutput.write(Data(output.utf8))
    exit(status)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(AuditCommand.exitUsage)
}
