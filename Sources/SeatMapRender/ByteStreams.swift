import CCairo
import CPNG
import CPNGStrips
import Foundation

/// Feeds bytes to Cairo's PNG reader.
final class ByteSource {
    let bytes: [UInt8]
    var position = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into data: UnsafeMutablePointer<UInt8>, _ length: Int) -> Bool {
        guard length <= bytes.count - position else { return false }
        bytes.withUnsafeBufferPointer { buf in
            if let base = buf.baseAddress { data.update(from: base + position, count: length) }
        }
        position += length
        return true
    }
}

/// Collects the bytes Cairo streams out.
final class ByteSink {
    var bytes: [UInt8] = []
}
