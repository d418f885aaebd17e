// Small programs, one per kind of report, whose output is what the README and the DocC articles show
// between `<!-- generated-report: NAME -->` markers. `.ci/check-reports` runs each and compares; its
// `--update` rewrites the blocks. Each scenario ends the process the way a user's program would (the
// default handler of a debug build traps), so what is printed is exactly what a user sees.
//
// Usage: ReportScenarios NAME   (names: see `scenarios` below)

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let scenarios: [String: () -> Void] = [
    "wrong-context": wrongContext,
    "data-race": dataRace,
    "after-shutdown": afterShutdown,
    "deadlock": deadlock,
    "ownership-history": ownershipHistory,
    "empty-label": emptyLabel,
    "isolation-check": isolationCheck, "headline": headline,
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let scenario = scenarios[name] else {
    let names = scenarios.keys.sorted().joined(separator: ", ")
    print("usage: ReportScenarios NAME; names: \(names)")
    exit(2)
}
scenario()
