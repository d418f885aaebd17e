/// The demo's command-line options.
struct DemoOptions: Equatable {
    /// How many photos the user adds at once (the seed's batch: 1 000).
    var photos = 1_000
    /// The business logic's cost per photo, in milliseconds (the seed's measurement: 2.6 ms).
    var costMilliseconds = 2.6
    /// Whether to print the help and exit.
    var showHelp = false

    /// The cost per photo as a `Duration`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    var costPerPhoto: Duration { .nanoseconds(Int64((costMilliseconds * 1_000_000).rounded())) }

    static let help = """
        USAGE: schedulable-demo [--photos <count>] [--cost-ms <milliseconds>]

        The upload scenario of the SchedulableObject pattern (services on their own business-logic
        thread): adding a photo to the upload queue costs 2.6 ms of business logic, and the app adds
        1 000 at a time. The demo runs a 60 Hz frame loop on the main thread and adds the photos two
        ways — on the main thread, and with the upload service owned by a background scheduler — then
        prints each way's total time, the main thread's worst and 99th-percentile frame delay, and
        whether frames were dropped (budget 16.7 ms). Finally it makes a deliberate wrong-thread access,
        caught in log mode, and shows the report.

        OPTIONS:
          --photos <count>         Photos added at once (default: 1000).
          --cost-ms <milliseconds> Business logic per photo (default: 2.6).
          -h, --help               Show this help.

        ENVIRONMENT:
          SCHEDULABLE_CONFINEMENT=<policy>    Overrides the demo's handler, e.g. warn-once or trap (trap stops at the deliberate bug).
        """

    /// A command-line mistake, described for the user.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Parses `arguments` (without the program name).
    ///
    /// - Parameter arguments: The command-line arguments.
    /// - Returns: The options.
    /// - Throws: ``UsageError`` naming the offending argument.
    static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions {
        var options = DemoOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                options.showHelp = true
            case "--photos":
                guard let text = remaining.popFirst(), let count = Int(text), count >= 0 else {
                    throw UsageError(description: "'--photos' needs a whole number of photos (0 or more)")
                }
                options.photos = count
            case "--cost-ms":
                guard let text = remaining.popFirst(), let cost = Double(text), cost >= 0, cost.isFinite else {
                    throw UsageError(description: "'--cost-ms' needs a number of milliseconds (0 or more), such as 2.6")
                }
                options.costMilliseconds = cost
            default:
                throw UsageError(description: "unknown argument '\(argument)'; see --help")
            }
        }
        return options
    }
}
