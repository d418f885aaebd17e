import Schedulable

/// A scheduler made with an empty label: refused where it is made, with the call site and the fix.
func emptyLabel() {
    let uploads = SerialQueueScheduler(label: "")
    uploads.schedule { print("never runs") }
}
