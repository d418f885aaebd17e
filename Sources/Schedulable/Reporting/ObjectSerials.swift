/// A number for each protected object a violation names, distinct for two objects even when the second
/// reuses the first one's freed address — which tests that make an object per run do all the time.
/// Violations of one object from one wrong context are one bug (``ConfinementViolationGroup``); an
/// address alone would merge two objects into one failure, and hide the second object's accesses.
///
/// Asked only where a violation is made (the slow path). One entry per address that violated, holding
/// the object weakly: a dead entry is replaced when its address comes back, and the table is swept of
/// dead entries whenever it doubles.
enum ObjectSerials {
    private final class Entry: @unchecked Sendable {
        // Read and written only under the table's lock.
        weak var object: AnyObject?
        let serial: UInt64

        init(_ object: AnyObject, serial: UInt64) {
            self.object = object
            self.serial = serial
        }
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var next: UInt64 = 1
        var sweepAt = 64
    }

    private static let table = LockedValue(Table())

    /// The serial of `object`: the same for every call while it lives, never one of an earlier object.
    ///
    /// - Parameter object: A live object.
    /// - Returns: Its serial.
    static func serial(of object: AnyObject) -> UInt64 {
        let id = ObjectIdentifier(object)
        return table.withLock { table in
            if let entry = table.entries[id], entry.object === object { return entry.serial }
            let serial = table.next
            table.next += 1
            table.entries[id] = Entry(object, serial: serial)
            if table.entries.count >= table.sweepAt {
                table.entries = table.entries.filter { $0.value.object != nil }
                table.sweepAt = max(64, table.entries.count * 2)
            }
            return serial
        }
    }
}
