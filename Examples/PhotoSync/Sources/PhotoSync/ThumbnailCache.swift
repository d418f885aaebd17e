import Schedulable

/// Thumbnails the user interface shows: used on the main thread only.
public final class ThumbnailCache: ConfinedObject, @unchecked Sendable {
    public let confinement = Confinement.observed()
    @Confined var thumbnails: [String: String] = [:]

    public init() {}

    /// The thumbnail of `photo`, made on first request.
    public func thumbnail(for photo: Photo) -> String {
        assertIsolated()
        if let cached = thumbnails[photo.name] { return cached }
        let made = "thumb:" + photo.name
        thumbnails[photo.name] = made
        return made
    }
}
