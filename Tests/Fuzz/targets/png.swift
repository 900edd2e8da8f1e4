// libFuzzer target: the PNG decoder (libpng's reference transforms, header limits).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = RGBAImage.pngSize(bytes)
    if let image = try? RGBAImage(png: bytes), image.pixels.count != image.width * image.height {
        fatalError("decoded pixel count does not match the size")
    }
    return 0
}
