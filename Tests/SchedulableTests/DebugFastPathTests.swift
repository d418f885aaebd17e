import CSchedulableContext
import Testing

@testable import Schedulable

/// The debug build's fast path (`csched_record_passes_fast_path`, one C function that `-Onone` inlines,
/// instead of `AtomicWord.loadRelaxed(firstIn:)` and `_CurrentToken.isCurrent(_:)`): it reads the same
/// word and gives the same answer. The C function finds the word after a two-word object header itself,
/// so a different header layout would make every debug check miss, or read the wrong word.
@Suite("Debug fast path: one inlined C function")
struct DebugFastPathTests {
    @Test func theCFunctionFindsTheWordAtomicWordReads() {
        let owner = SerialQueueScheduler(label: "test.debugfastpath.address")
        for record in [Confinement(owner: owner)._record, Confinement.transferable(owner: owner)._record] {
            let object = UnsafeRawPointer(Unmanaged.passUnretained(record).toOpaque())
            #expect(object + 2 * MemoryLayout<UnsafeRawPointer>.size == UnsafeRawPointer(AtomicWord._address(firstIn: record)))
        }
    }

    @Test func theCFunctionAnswersAsTheSwiftFastPath() {
        let owner = SerialQueueScheduler(label: "test.debugfastpath.answer")
        let record = owner.sync { Confinement.transferable(owner: owner)._record }
        let object = Unmanaged.passUnretained(record).toOpaque()
        func both() -> (c: Bool, swift: Bool) {
            (csched_record_passes_fast_path(object), _CurrentToken.isCurrent(AtomicWord.loadRelaxed(firstIn: record)))
        }
        let onOwner = owner.sync { both() }
        #expect(onOwner.c && onOwner.swift)
        let offOwner = both()
        #expect(!offOwner.c && !offOwner.swift)
        #expect(record._passesFastPath == false)
        #expect(owner.sync { record._passesFastPath })
    }
}
