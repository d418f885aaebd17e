import Testing

@testable import Schedulable

/// The words a record packs to stay in a 64-byte allocator chunk with the debug tier: its bind site
/// (`PackedCodeLocation(packing:)`) and its creating thread, kept in the word that later holds its
/// history (`ThreadStamp.tagged`). Records built through the public API are in `BindingTests` and
/// `OwnershipHistoryTests`; these are the cases those cannot reach from a test (a main-thread stamp:
/// `swift test` parks the main thread).
@Suite("Record words")
struct RecordWordsTests {
    @Test func aBindSitePacksAndUnpacksWhole() {
        let sites = [
            CompactCodeLocation.none,
            CompactCodeLocation(file: #fileID, line: 1),
            CompactCodeLocation(file: #fileID, line: 65_534),
            CompactCodeLocation(file: #fileID, line: 65_535),  // interned: the line field's marker
            CompactCodeLocation(file: #fileID, line: 1_000_000),
            CompactCodeLocation(file: "x", line: 12),  // one scalar, no pointer: interned
        ]
        for site in sites {
            let unpacked = PackedCodeLocation(packing: site).compactOrNone
            #expect(unpacked == site)
            #expect(unpacked.isNone == site.isNone)
            #expect(unpacked.locationIfAny == site.locationIfAny)
        }
        #expect(PackedCodeLocation(packing: .none).bits == 0)
    }

    #if SCHEDULABLE_CHECKS
    @Test func aTaggedThreadStampComesBackWithItsMainThreadFlag() {
        let mainFlag = UInt(1) << (UInt.bitWidth - 1)
        let current = ThreadStamp.current
        let stamps = [current, ThreadStamp(word: 1), ThreadStamp(word: mainFlag | 1), ThreadStamp(word: mainFlag | 123_456)]
        for stamp in stamps {
            #expect(stamp.tagged & 1 == 1)
            #expect(ThreadStamp(tagged: stamp.tagged) == stamp)
            #expect(ThreadStamp(tagged: stamp.tagged).isMainThread == stamp.isMainThread)
        }
        #expect(ThreadStamp(tagged: ThreadStamp(word: mainFlag | 7).tagged).isMainThread)
    }
    #endif
}
