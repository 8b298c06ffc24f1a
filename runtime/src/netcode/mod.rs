//! Netcode helpers (feature `netcode`): input playout on the server and prediction with
//! reconciliation on the client, generic over the game's own input and step function.

pub mod playout;
pub mod reconcile;
