//! village-server
