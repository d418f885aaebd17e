import Schedulable

// Three services of an app, each confined to one context, with the properties an app would have.
//
// Built normally, every property is `@Confined` (checked while the library's debug tier is compiled
// in); built with the package's `PlainWorkload` trait (`WORKLOAD_PLAIN`), the same classes have plain
// stored properties and no confinement, so the two builds differ only by the checks. The switch is here,
// in the benchmark: the library has no such mode.

/// Stock kept on a `SerialQueueScheduler`: reserves one unit per id.
final class Inventory {
    #if !WORKLOAD_PLAIN
    let confinement: Confinement
    #endif

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var stock = [Int](repeating: 0, count: 1024)

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var reserved = 0

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var lastID = 0

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var isOpen = true

    init(owner: SerialQueueScheduler) {
        #if !WORKLOAD_PLAIN
        confinement = Confinement(owner: owner)
        #endif
    }

    /// Five guarded accesses: `isOpen`, `stock` (in place), `reserved` (in place), `lastID` (set and get).
    func reserve(_ id: Int) -> Int {
        guard isOpen else { return 0 }
        stock[id & 1023] &+= 1
        reserved &+= 1
        lastID = id
        return lastID
    }
}

/// An index kept on a `ThreadScheduler`: buckets ids and tracks the largest.
final class Indexer {
    #if !WORKLOAD_PLAIN
    let confinement: Confinement
    #endif

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var buckets: [Int: Int] = [:]

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var total = 0

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var largestID = 0

    init(owner: ThreadScheduler) {
        #if !WORKLOAD_PLAIN
        confinement = Confinement(owner: owner)
        #endif
    }

    /// Five guarded accesses: `buckets` (in place: a hashed update, the one piece of real work per
    /// id), `total` (in place), `largestID` (get, then set: ids grow), `total` (get).
    func index(_ id: Int) -> Int {
        buckets[id & 4095, default: 0] &+= id
        total &+= 1
        if id > largestID { largestID = id }
        return total
    }
}

/// What the main thread shows: the latest rows and a counter.
final class Presenter {
    #if !WORKLOAD_PLAIN
    let confinement: Confinement
    #endif

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var rows: [Int] = []

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var shown = 0

    #if !WORKLOAD_PLAIN
    @Confined
    #endif
    var title = "idle"

    init() {
        #if !WORKLOAD_PLAIN
        confinement = Confinement(owner: MainThreadScheduler.shared)
        #endif
    }

    /// Four guarded accesses: `rows` (in place, then `count`), `shown` (in place, get); a fifth, to
    /// clear `rows`, once in 64.
    func present(_ id: Int) -> Int {
        rows.append(id)
        shown &+= 1
        if rows.count == 64 { rows.removeAll(keepingCapacity: true) }
        return shown
    }

    /// One guarded access per batch.
    func setTitle(_ text: String) {
        title = text
    }
}

#if !WORKLOAD_PLAIN
extension Inventory: ConfinedObject {}
extension Indexer: ConfinedObject {}
extension Presenter: ConfinedObject {}
#endif

/// Guarded accesses per id, as counted in the methods above: reserve 5, index 5, present 4 (the
/// clearing access once in 64 and the title once per batch are left out).
let accessesPerID = 14
