import IsolationShapesLegacy

/// A Swift 5-mode module built without `DynamicActorIsolation`: its isolated closures carry
/// no entry check, so nothing fails (or traps) where Swift 6 mode would trap.
@MainActor public final class PlainSwift5ViewModel {
    public private(set) var title = ""

    public nonisolated init() {}

    /// The line of `reload()`'s closure.
    public nonisolated static let reloadLine = #line + 3

    public func reload() {
        LegacyLoader.load { self.title = "loaded" }
    }
}
