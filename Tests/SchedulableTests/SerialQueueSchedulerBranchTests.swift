import Dispatch
import Testing

@testable import Schedulable

@Suite("Queue scheduler trees and branches")
struct SerialQueueSchedulerBranchTests {
    @Test func branchLabelsComposeInReverseDNSOrder() {
        let network = SerialQueueScheduler(label: "com.app.network", qos: .utility)
        let images = network.branch("images")
        let thumbnails = images.branch("thumbnails")
        #expect(images.label == "com.app.network.images")
        #expect(thumbnails.label == "com.app.network.images.thumbnails")
        #expect(images.queue.label == "com.app.network.images")
        #expect(images.parent === network)
        #expect(thumbnails.executionContext.parent === images.executionContext)
    }

    @Test func branchQoSDefaultsToTheParentsAndCanBeRaised() {
        let network = SerialQueueScheduler(label: "com.app.network", qos: .utility)
        let images = network.branch("images")
        let thumbnails = images.branch("thumbnails")
        let visible = images.branch("visible", qos: .userInitiated)
        #expect(images.qos == .utility)
        #expect(thumbnails.qos == .utility)
        #expect(images.queue.qos == .utility)
        #expect(visible.qos == .userInitiated)
        #expect(visible.queue.qos == .userInitiated)
        #expect(visible.branch("cell").qos == .userInitiated)
    }
}
