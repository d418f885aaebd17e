// The probe's "summary <violations> <sites>" mode: `violations` wrong-thread writes spread evenly over
// `sites` access sites (at most four), made with the process's own settings
// (SCHEDULABLE_CONFINEMENT=warn-once or warn), then a normal exit. It prints the first site's line first. The summary the policy prints at
// exit must be on standard error with exact counts (ViolationSummaryAtExitTests).

import Dispatch
import Schedulable

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sites of their own: each writes the property from a line of its own (bodies that differ, so that no
/// optimizer merges them), on consecutive lines from `summarySiteLine`.
private let summarySiteLine = #line + 1
@inline(never) func writeAtSummarySite0(_ settings: Settings) { settings.retries += 1 }
@inline(never) func writeAtSummarySite1(_ settings: Settings) { settings.retries += 2 }
@inline(never) func writeAtSummarySite2(_ settings: Settings) { settings.retries += 3 }
@inline(never) func writeAtSummarySite3(_ settings: Settings) { settings.retries += 4 }

func runSummary(violations: Int, sites: Int) -> Never {
    let writers = [writeAtSummarySite0, writeAtSummarySite1, writeAtSummarySite2, writeAtSummarySite3]
    let used = writers.prefix(max(1, min(sites, writers.count)))
    StandardError.write("site line: \(summarySiteLine)\n")
    let owner = SerialQueueScheduler(label: "probe.summary")
    let settings = Settings(owner: owner)
    owner.sync { settings.retries = 0 }
    DispatchQueue.global().sync {
        for index in 0..<violations { used[index % used.count](settings) }
    }
    exit(0)
}
