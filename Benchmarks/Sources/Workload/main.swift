// A realistic workload: three confined services hopping between a serial queue, a thread scheduler and
// the main thread, a few million guarded accesses in all (see Services.swift).
//
//     Workload --main dispatchMain|runloop [--ids 5000000] [--batch 1000]
//
// Per batch of ids: the inventory reserves each id on its `SerialQueueScheduler`, then hands the batch
// to the indexer's `ThreadScheduler`, which hands it to the main thread — even batches through
// `MainThreadScheduler.schedule`, odd ones through raw libdispatch, `group.notify(queue: .main)`, as
// code that does not know the library delivers its results — and main presents it and starts the next
// batch on the inventory's queue. One batch at a time, so the order of every access is fixed.
//
// The main queue is drained by `dispatchMain()` (the main thread parks and a worker thread drains the
// queue, as in a server or a command-line tool) or by `RunLoop.main.run()` (the main thread drains it,
// as in an app). Prints the wall-clock seconds from the first batch to the last, and a checksum.

import Dispatch
import Foundation
import Schedulable

enum MainDriver: String {
    case dispatchMain
    case runloop
}

let usage = "usage: Workload --main dispatchMain|runloop [--ids n] [--batch n]"
var driver: MainDriver?
var ids = 2_000_000
var batch = 1_000
var arguments = CommandLine.arguments.dropFirst()[...]
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fatalError(usage) }
    switch flag {
    case "--main": driver = MainDriver(rawValue: value)
    case "--ids": ids = Int(value) ?? -1
    case "--batch": batch = Int(value) ?? -1
    default: fatalError("unknown option '\(flag)'\n\(usage)")
    }
}
guard let driver, ids > 0, batch > 0 else { fatalError(usage) }

/// The three services and the batch loop; each service is touched only in its owner's work, which the
/// checks verify in the checked builds.
final class Pipeline: @unchecked Sendable {
    let inventoryScheduler = SerialQueueScheduler(label: "workload.inventory")
    let indexerScheduler = ThreadScheduler(label: "workload.indexer")
    let inventory: Inventory
    let indexer: Indexer
    let presenter: Presenter
    let ids: Int
    let batch: Int
    let started = DispatchTime.now().uptimeNanoseconds
    /// Touched only on the main thread.
    var checksum = 0

    init(ids: Int, batch: Int) {
        self.ids = ids
        self.batch = batch
        inventory = Inventory(owner: inventoryScheduler)
        indexer = Indexer(owner: indexerScheduler)
        presenter = Presenter()
    }

    func start() {
        inventoryScheduler.schedule { [self] in reserve(from: 0) }
    }

    /// On the inventory's queue.
    func reserve(from first: Int) {
        let end = min(first + batch, ids)
        var sum = 0
        for id in first..<end { sum &+= inventory.reserve(id) }
        indexerScheduler.schedule { [self, sum] in index(first, end, sum) }
    }

    /// On the indexer's thread.
    func index(_ first: Int, _ end: Int, _ reserved: Int) {
        var sum = reserved
        for id in first..<end { sum &+= indexer.index(id) }
        let present: @Sendable () -> Void = { [self, sum] in self.present(first, end, sum) }
        if (first / batch) % 2 == 0 {
            MainThreadScheduler.shared.schedule(present)
        } else {
            let group = DispatchGroup()
            group.enter()
            group.notify(queue: .main, execute: present)
            group.leave()
        }
    }

    /// On the main thread (or the worker draining the main queue under `dispatchMain()`).
    func present(_ first: Int, _ end: Int, _ indexed: Int) {
        var sum = indexed
        for id in first..<end { sum &+= presenter.present(id) }
        presenter.setTitle(end < ids ? "loading" : "done")
        checksum &+= sum
        if end < ids {
            inventoryScheduler.schedule { [self] in reserve(from: end) }
        } else {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            print("seconds\t\(seconds)\taccesses\t\(accessesPerID * ids)\tchecksum\t\(checksum)")
            exit(0)
        }
    }
}

let pipeline = Pipeline(ids: ids, batch: batch)
pipeline.start()
switch driver {
case .dispatchMain:
    // `dispatchMain()` ends the main thread with `pthread_exit`, whose last thread-specific destructor
    // (libdispatch's) parks it in `sigsuspend`, which valgrind 3.19 does not survive. A destructor
    // registered now runs after libdispatch's (which unbind the main queue) and parks it in `sleep`
    // instead: the main queue is drained by a worker thread as under a plain `dispatchMain()`, and
    // callgrind can count the run (as KernelRunner does for its `confinedMainQueue` kernel).
    var parkKey = pthread_key_t()
    pthread_key_create(&parkKey) { _ in
        while true { sleep(3600) }
    }
    pthread_setspecific(parkKey, UnsafeRawPointer(bitPattern: 1))
    dispatchMain()
case .runloop:
    // A timer keeps the run loop from returning for want of sources while the main queue is empty.
    let keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
    RunLoop.main.add(keepAlive, forMode: .default)
    while true { RunLoop.main.run() }
}
