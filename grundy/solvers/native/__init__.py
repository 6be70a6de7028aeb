"""Native (C) kernels generated from the IR and built with the system compiler."""
