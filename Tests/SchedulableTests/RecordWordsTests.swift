import Testing

@testable import Schedulable

/// The words a record packs to stay in a 64-byte allocator chunk with the debug tier: its bind site
/// (`PackedCodeLocation`) and its creating thread, kept in the word that later holds its history
/// (`ThreadStamp.tagged`). Records built through the public API are in `BindingTests` and
/// `OwnershipHistoryTests`; these are the cases those cannot reach from a test (a main-thread stamp:
/// `swift test` parks the main thread).
@Suite("Record words")
struct RecordWordsTests {
    @Test func aBindSitePacksAndUnpacksWhole() {
        let sites: [(PackedCodeLocation, CodeLocation?)] = [
            (.none, nil),
            (PackedCodeLocation(file: #fileID, line: 1), CodeLocation(fileID: #fileID, line: 1)),
            (PackedCodeLocation(file: #fileID, line: 65_534), CodeLocation(fileID: #fileID, line: 65_534)),
            // Interned: the line field's marker, a line past 16 bits, a literal of one scalar (no pointer).
            (PackedCodeLocation(file: #fileID, line: 65_535), CodeLocation(fileID: #fileID, line: 65_535)),
            (PackedCodeLocation(file: #fileID, line: 1_000_000), CodeLocation(fileID: #fileID, line: 1_000_000)),
            (PackedCodeLocation(file: "x", line: 12), CodeLocation(fileID: "x", line: 12)),
        ]
        for (site, expected) in sites {
            #expect(site.locationIfAny == expected)
            #expect(site.isNone == (expected == nil))
            #expect(PackedCodeLocation(rawBits: site.bits) == site)
        }
        #expect(PackedCodeLocation.none.bits == 0)
        #expect(Set(sites.map(\.0)).count == sites.count)
    }

    /// Two copies of one literal are one location: equality and the hash read the bytes, so a site
    /// kept at another address, or interned, is the same key in the tables of names and options.
    @Test func aSiteIsItsBytesAndLineNotItsAddress() {
        for (file, line) in [(#fileID, UInt(7)), ("x", UInt(12))] {
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: file.utf8.count + 1)
            defer { copy.deallocate() }
            copy.initialize(from: Array(file.utf8) + [0], count: file.utf8.count + 1)
            let elsewhere = PackedCodeLocation(rawBits: UInt64(UInt(bitPattern: copy)) << 16 | UInt64(line))
            let site = file == "x" ? PackedCodeLocation(file: "x", line: line) : PackedCodeLocation(file: #fileID, line: line)
            #expect(elsewhere.bits != site.bits)
            #expect(elsewhere == site)
            #expect(elsewhere.hashValue == site.hashValue)
            #expect(elsewhere.location == CodeLocation(fileID: file, line: Int(line)))
            #expect(elsewhere != PackedCodeLocation(rawBits: elsewhere.bits + 1))
        }
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
