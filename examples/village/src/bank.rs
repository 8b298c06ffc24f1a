//! The bank: coin savings with interest, the vault (storage for items), the ledger. Ids
//! 870–889.

/// Sent by a client depositing or withdrawing coins at the counter.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "bank:transfer", id = 870, dir = "c2s")]
pub struct BankTransfer {
    /// Positive deposits, negative withdraws.
    #[tuplet(range(-1000000, 1000000))]
    pub amount: i32,
    /// Idempotency key, so a double click moves coins once.
    #[tuplet(bigint)]
    pub nonce: u64,
}

/// The account after any change.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "bank:account", id = 870, dir = "s2c")]
pub struct BankAccount {
    /// Savings, coins, to the hundredth (interest accrues in fractions).
    #[tuplet(scale = 100)]
    pub savings: f64,
    /// Interest rate per game week, in parts per thousand.
    #[tuplet(quant = "permille", range(0.0, 0.1))]
    pub rate: f32,
    /// Vault slots used / size.
    pub vault: [u8; 2],
}

/// One ledger entry.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct LedgerEntry {
    /// Entry id (a 64-bit ledger sequence).
    #[tuplet(bigint)]
    pub id: i64,
    /// When, ms.
    pub at: u64,
    /// Change, in hundredths of a coin.
    pub cents: i64,
    /// Memo key (`bank.interest`, `bank.deposit`).
    #[tuplet(len(max = 32))]
    pub memo: String,
}

/// The ledger page, when the statement is opened.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "bank:ledger", id = 871, dir = "s2c")]
pub struct BankLedger {
    /// Entries, newest first.
    #[tuplet(len(max = 50))]
    pub entries: Vec<LedgerEntry>,
    /// Cursor for the next page.
    #[tuplet(bigint)]
    pub next: Option<i64>,
}

/// Sent by a client opening the statement (or the next page).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "bank:ledger", id = 871, dir = "c2s")]
pub struct BankLedgerOpen {
    /// Cursor; absent for the first page.
    #[tuplet(bigint)]
    pub before: Option<i64>,
}

/// Sent by a client moving an item stack between backpack and vault.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "bank:vault", id = 872, dir = "c2s")]
pub struct BankVault {
    /// Backpack slot.
    #[tuplet(range(0, 47))]
    pub bag: u8,
    /// Vault slot.
    pub vault: u8,
    /// Into the vault (true) or out.
    pub store: bool,
}
