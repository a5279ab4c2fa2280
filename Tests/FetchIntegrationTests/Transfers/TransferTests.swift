import Testing

/// The transfer suites, one test at a time against one transfer server, so that the
/// peak memory measured by one test is not raised by another transfer.
@Suite(.transferServer, .serialized)
enum TransferTests {}
