// `JUnitReport` and its XML moved to DiffLabResults (below the gate, which writes JUnit too);
// re-exported here so code that imports only DiffLabReport still sees it under the same name.
@_exported import struct DiffLabResults.JUnitReport
