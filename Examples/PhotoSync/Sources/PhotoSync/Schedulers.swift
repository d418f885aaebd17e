import Schedulable

/// The upload subsystem's scheduler: the upload queue and the jobs handed to it run here.
public let uploads = SerialQueueScheduler(label: "com.photosync.uploads")

/// The import subsystem's scheduler: jobs are built here, then handed to `uploads`.
public let importer = SerialQueueScheduler(label: "com.photosync.importer")

/// A photo to upload.
public struct Photo: Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}
