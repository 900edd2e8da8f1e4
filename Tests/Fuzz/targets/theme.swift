// libFuzzer target: the theme reader (colours, marks, metrics into a LayoutStyle).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTheme(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceText(name: "theme.json", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    if let theme = try? Theme.decode(source) {
        _ = theme.check()
    }
    return 0
}
