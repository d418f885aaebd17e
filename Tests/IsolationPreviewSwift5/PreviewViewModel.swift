import IsolationShapesLegacy

/// A Swift 5-mode module built with the upcoming feature `DynamicActorIsolation`: its isolated
/// closures carry Swift 6's entry checks, so its tests fail where Swift 6 mode would trap.
@MainActor public final class PreviewViewModel {
    public private(set) var title = ""

    public nonisolated init() {}

    /// The line of `reload()`'s closure.
    public nonisolated static let reloadLine = #line + 3

    public func reload() {
        LegacyLoader.load { self.title = "loaded" }
    }
}
