// FineReg PCRF tag array, access logic and free-space monitor (Oh, Koo, Kim, Ro, Yoon,
// MICRO 2018, sec. V-C, V-D, V-E, Fig. 10 and 11).
//
// The PCRF holds the live registers of pending CTAs, one warp register (32 x 4 B) per entry.
// Its tags (tag_q, SRAM, one write and one synchronous read port) chain a CTA's entries:
// tag = {next entry (10), warp id (5), register index (6)} = 21 bits, the paper's 21 x 1024.
// The paper also lists a valid and an end bit: valid is the free-space monitor's flag of the
// entry (used_q, one flop per entry, the paper's "array of 1/0 flags"), and the end of a chain
// is a tag whose next pointer is the entry itself, so neither costs a tag bit.
//
// Free-space monitor: used_q and free_q (the number of 0 flags, kept as a counter rather than
// a 1024-input population count). The builder always takes the lowest free entry (fr_ffs.v:
// OR of 32-entry groups, then two 5-level trees). Reset and clr_i free every entry; the SRAM is
// not cleared.
//
// Chain builder (switch-out; live registers of the stalled CTA move ACRF -> PCRF):
//   bld_start_i   (idle, an entry free)   reserves the chain's head: bld_busy_o, bld_head_o.
//   bld_push_i    (busy; bld_last_i or an entry free) writes the tag of the reserved entry
//                 with {next, bld_warp_i, bld_reg_i}: next is a newly reserved entry, or for
//                 bld_last_i the entry itself (end); bld_cnt_o counts the pushes; after the
//                 last, bld_done_o pulses for one cycle and bld_busy_o falls. bld_head_o and
//                 bld_cnt_o keep the finished chain's head and length for fr_ptrtab.
//   A request that is not accepted (start while busy or with no entry free, push while idle
//   or a non-last push with no entry free) changes nothing; bld_room_o (= free_cnt_o != 0)
//   and bld_busy_o from the previous cycle say in advance whether it will be.
//   A chain of n registers takes 1 + n cycles (start, then one push per cycle).
// Chain walker (switch-in; the pending CTA's live registers move PCRF -> ACRF):
//   walk_start_i  (walker idle) reads the tag of walk_head_i; after that edge walk_valid_o,
//                 walk_entry_o, walk_warp_o, walk_reg_o show the first register, and the
//                 entry is freed. Each following cycle without walk_hold_i reads the next
//                 entry of the chain (its address is the read register's next field, so the
//                 walk is one entry per cycle) and frees it; walk_last_o marks the end, and
//                 the cycle after it walk_valid_o falls. n entries: valid in n cycles.
// Builder and walker run at once (the write and read ports are separate), which is the
// paper's swap: entries the walker frees are allocatable from the next cycle.
// clr_i wins over everything. ENTRIES must be a power of two >= 64.
// C reference: csim/hw/finereg/fr_pcrf.c.
module fr_pcrf #(
  parameter integer ENTRIES = 1024,  // PCRF entries
  parameter integer WARPS   = 32,    // warps per CTA
  parameter integer REGS    = 64     // registers per thread
) (
  input  wire                          clk_i,
  input  wire                          rst_ni,
  input  wire                          clr_i,
  input  wire                          bld_start_i,
  input  wire                          bld_push_i,
  input  wire [$clog2(WARPS)-1:0]      bld_warp_i,
  input  wire [$clog2(REGS)-1:0]       bld_reg_i,
  input  wire                          bld_last_i,
  input  wire                          walk_start_i,
  input  wire [$clog2(ENTRIES)-1:0]    walk_head_i,
  input  wire                          walk_hold_i,
  output wire [$clog2(ENTRIES+1)-1:0]  free_cnt_o,
  output wire                          bld_busy_o,
  output wire                          bld_room_o,
  output wire [$clog2(ENTRIES)-1:0]    bld_head_o,
  output wire [$clog2(ENTRIES+1)-1:0]  bld_cnt_o,
  output wire                          bld_done_o,
  output wire                          walk_valid_o,
  output wire [$clog2(ENTRIES)-1:0]    walk_entry_o,
  output wire [$clog2(WARPS)-1:0]      walk_warp_o,
  output wire [$clog2(REGS)-1:0]       walk_reg_o,
  output wire                          walk_last_o
);

  localparam integer EW = $clog2(ENTRIES);
  localparam integer WW = $clog2(WARPS);
  localparam integer RW = $clog2(REGS);
  localparam integer NW = $clog2(ENTRIES + 1);
  localparam integer TW = EW + WW + RW;
  localparam [NW-1:0] N_ENTRIES = ENTRIES[NW-1:0];
  localparam [NW-1:0] ONE = 1;

  reg [TW-1:0]      tag_q [0:ENTRIES-1] /*verilator public_flat_rd*/;
  reg [TW-1:0]      rd_q   /*verilator public_flat_rd*/;
  reg [ENTRIES-1:0] used_q /*verilator public_flat_rd*/;
  reg [NW-1:0]      free_q /*verilator public_flat_rd*/;
  reg               bld_q  /*verilator public_flat_rd*/;
  reg [EW-1:0]      cur_q  /*verilator public_flat_rd*/;
  reg [EW-1:0]      head_q /*verilator public_flat_rd*/;
  reg [NW-1:0]      cnt_q  /*verilator public_flat_rd*/;
  reg               done_q /*verilator public_flat_rd*/;
  reg               wv_q   /*verilator public_flat_rd*/;
  reg [EW-1:0]      wcur_q /*verilator public_flat_rd*/;

  // ---- lowest free entry: a log-depth find-first-set tree over the free flags ----
  wire [EW-1:0] first_free;
  wire          any_free;
  fr_ffs #(.N(ENTRIES)) u_ffz (.v_i(~used_q), .found_o(any_free), .idx_o(first_free));

  // ---- requests ----
  wire          room      = any_free;  // also free_q != 0: the count mirrors the flags
  wire          start_acc = bld_start_i & ~bld_q & room;
  wire          push_acc  = bld_push_i & bld_q & (bld_last_i | room);
  wire          alloc     = start_acc | (push_acc & ~bld_last_i);
  wire [EW-1:0] rd_next   = rd_q[TW-1:WW+RW];
  wire          cur_last  = rd_next == wcur_q;
  wire          walk_acc  = walk_start_i & ~wv_q;
  wire          adv       = wv_q & ~walk_hold_i;
  wire          rd_en     = ~clr_i & (walk_acc | (adv & ~cur_last));
  wire [EW-1:0] raddr     = walk_acc ? walk_head_i : rd_next;
  wire          we        = ~clr_i & push_acc;
`ifdef BROKEN_FOR_TEST
  // Test-only fault (built as "fr_pcrf-broken"): a non-last push of register 63 links its
  // tag to the neighbour of the next entry.
  wire [EW-1:0] wnext = bld_last_i ? cur_q :
                        first_free ^ {{(EW-1){1'b0}}, bld_reg_i == {RW{1'b1}}};
`else
  wire [EW-1:0] wnext = bld_last_i ? cur_q : first_free;
`endif

  // ---- the tag SRAM: one write port, one synchronous read port (read-first), no reset ----
  always @(posedge clk_i) begin
    if (we) tag_q[cur_q] <= {wnext, bld_warp_i, bld_reg_i};
    if (rd_en) rd_q <= tag_q[raddr];
  end

  // ---- free-space monitor, builder, walker ----
  reg [ENTRIES-1:0] used_d;
  reg [NW-1:0]      free_d;
  always @* begin
    used_d = used_q;
    free_d = free_q;
    if (rd_en) begin
      used_d[raddr] = 1'b0;
      if (used_q[raddr]) free_d = free_d + ONE;
    end
    if (alloc) begin
      used_d[first_free] = 1'b1;
      free_d = free_d - ONE;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q <= {ENTRIES{1'b0}};
      free_q <= N_ENTRIES;
      bld_q  <= 1'b0;
      cur_q  <= {EW{1'b0}};
      head_q <= {EW{1'b0}};
      cnt_q  <= {NW{1'b0}};
      done_q <= 1'b0;
      wv_q   <= 1'b0;
      wcur_q <= {EW{1'b0}};
    end else if (clr_i) begin
      used_q <= {ENTRIES{1'b0}};
      free_q <= N_ENTRIES;
      bld_q  <= 1'b0;
      done_q <= 1'b0;
      wv_q   <= 1'b0;
    end else begin
      used_q <= used_d;
      free_q <= free_d;
      done_q <= push_acc & bld_last_i;
      if (start_acc) begin
        bld_q  <= 1'b1;
        cur_q  <= first_free;
        head_q <= first_free;
        cnt_q  <= {NW{1'b0}};
      end else if (push_acc) begin
        cnt_q <= cnt_q + ONE;
        if (bld_last_i) bld_q <= 1'b0;
        else            cur_q <= first_free;
      end
      if (rd_en) begin
        wcur_q <= raddr;
        wv_q   <= 1'b1;
      end else if (adv) begin
        wv_q   <= 1'b0;
      end
    end
  end

  assign free_cnt_o   = free_q;
  assign bld_busy_o   = bld_q;
  assign bld_room_o   = room;
  assign bld_head_o   = head_q;
  assign bld_cnt_o    = cnt_q;
  assign bld_done_o   = done_q;
  assign walk_valid_o = wv_q;
  assign walk_entry_o = wcur_q;
  assign walk_warp_o  = rd_q[WW+RW-1:RW];
  assign walk_reg_o   = rd_q[RW-1:0];
  assign walk_last_o  = wv_q & cur_last;

endmodule
