// schedulable-demo: the SchedulableObject article's upload scenario, measured, and a wrong-thread access
// caught by Schedulable. `swift run schedulable-demo --help` explains the flags.

import Dispatch
import Foundation
import Schedulable

let options: DemoOptions
do {
    options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("schedulable-demo: \(error)\n".utf8))
    exit(64)
}
if options.showHelp {
    print(DemoOptions.help)
    exit(0)
}

// Log mode, so the deliberate bug at the end is reported and the demo finishes. Without this a debug
// build traps on the first violation (after printing the same report).
let logHandler = LogViolationHandler()
ConfinementSystem.bootstrap(logHandler)

// The measurements use ContinuousClock and Duration, macOS 13 / iOS 16 API above the library's floor.
if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
    runDemo(options, logHandler: logHandler)
} else {
    FileHandle.standardError.write(Data("schedulable-demo: needs macOS 13 or later (ContinuousClock)\n".utf8))
    exit(69)
}

/// The demo after its options: the upload scenario both ways, its table, and the wrong-thread access.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func runDemo(_ options: DemoOptions, logHandler: LogViolationHandler) {
    let photos = (0..<options.photos).map(Photo.init(number:))
    print("""
        Schedulable demo: the upload scenario
        The user adds \(options.photos) photos at once; each costs \(fixedDecimals(options.costMilliseconds, digits: 1)) ms \
        of business logic.
        The main thread draws a frame every \(FrameStats.budget.milliseconds(1)) ms (60 Hz).

        """)

    var results: [ScenarioResult] = []
    for placement in Placement.allCases {
        print("running: \(placement.title) …")
        results.append(runUploadScenario(placement, photos: photos, costPerPhoto: options.costPerPhoto))
    }

    print("")
    let titleWidth = Placement.allCases.map(\.title.count).max() ?? 0
    func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
    func leftPadded(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
    print(padded("way", titleWidth), leftPadded("total", 9), leftPadded("worst delay", 13), leftPadded("p99 delay", 11),
          leftPadded("frames", 7), "  verdict")
    for result in results {
        print(
            padded(result.placement.title, titleWidth),
            leftPadded(result.total.seconds(2) + " s", 9),
            leftPadded(result.frames.worstStall.milliseconds(1) + " ms", 13),
            leftPadded(result.frames.p99Stall.milliseconds(1) + " ms", 11),
            leftPadded("\(result.frames.frames)", 7),
            " ", result.frames.verdict
        )
        precondition(result.queued == options.photos, "the scenario lost photos: \(result.queued) of \(options.photos)")
    }
    print("""

        A frame's delay is how much later than due it started (gap to the previous frame minus \
        \(FrameStats.budget.milliseconds(1)) ms).
        Both ways do the same work; only the thread it occupies differs.

        """)

    demonstrateWrongThreadAccess(logHandler: logHandler)
}
