import Schedulable

func render(_ ledger: Ledger, _ cache: Cache) {
    _ = ledger.total
    cache.entries["a"] = 1
}
