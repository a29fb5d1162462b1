// Address mapping table of the locality-aware register file (Jeon, Esfeden, Abu-Ghazaleh,
// Wong, Elango, "Locality-aware GPU Register File", IEEE CAL 2019, sec. 3, 4.2).
//
// One entry per warp-unit global load whose data sits in a physical register: the word address
// of lane 0 (base, 24 bits), the distance between lanes in words (stride, 9 bits: 0 or a power
// of two), the active lanes - 1 (cnt, 5 bits; lanes 0..cnt) -- the paper's 38 bits -- plus the
// physical register id and a valid bit the paper does not count. The table is a CAM: a lookup
// compares every entry in parallel and answers in the out of its own edge (latency 1).
//
// op_i (one operation per cycle; an insert, on its own write port ins_i, may come in the same
// cycle: the operation sees the table before the edge, and the inserted entry is not touched by
// it):
//   1 lookup (base_i, stride_i, cnt_i). Among valid entries with the same stride, lowest index
//     first:
//       perfect (kind 1): an entry with the same base holding at least the requested lanes:
//                         the destination maps to its register;
//       shift   (kind 2): an entry holding every requested address, from its lane shift_a on
//                         (stride != 0): the w-merge shifts one register;
//       merge   (kind 3): a "head" entry A holding the lane-0 address at its lane shift_a and a
//                         "tail" entry B whose lane 0 is requested lane shift_b (0 < shift_b <=
//                         cnt_i) and which reaches requested lane cnt_i, with shift_b <= split =
//                         A's lanes from shift_a on: lanes < split come from A, the rest from B
//                         (sec. 2.2's shuffle-down plus the next warp's lanes);
//       miss    (kind 0).
//     done_o and the result fields are registered; they hold until the next lookup.
//   ins_i: insert {ins_preg_i, ins_base_i, ins_stride_i, ins_cnt_i} at the lowest invalid entry;
//     when every entry is valid, at the round-robin pointer rr_q (evict_o, evict_preg_o: the
//     replaced register).
//   3 invalidate every valid entry whose register is preg_i (its last mapping went away).
//   4 invalidate every valid entry whose address range [base, base + cnt*stride] overlaps
//     [base_i, hi_i] (a store to those words).
//   5 clear (every valid bit; kernel start). Other codes (2, 6, 7): idle.
// Invalidation clears the valid bit only. The table is memory (not reset); rr_q and the result
// registers are. occ_o counts valid entries after the edge. C reference: csim/hw/larf/larf_amt.c.
module larf_amt #(
  parameter integer ENTRIES = 200,  // the paper's ~1 KB table
  parameter integer NPREGS  = 1024  // physical warp registers per SM
) (
  input  wire                              clk_i,
  input  wire                              rst_ni,
  input  wire [2:0]                        op_i,
  input  wire [23:0]                       base_i,
  input  wire [8:0]                        stride_i,
  input  wire [4:0]                        cnt_i,
  input  wire [$clog2(NPREGS)-1:0]         preg_i,
  input  wire [23:0]                       hi_i,
  input  wire                              ins_i,
  input  wire [23:0]                       ins_base_i,
  input  wire [8:0]                        ins_stride_i,
  input  wire [4:0]                        ins_cnt_i,
  input  wire [$clog2(NPREGS)-1:0]         ins_preg_i,
  output wire                              done_o,
  output wire [1:0]                        kind_o,
  output wire [$clog2(NPREGS)-1:0]         preg_a_o,
  output wire [4:0]                        shift_a_o,
  output wire [$clog2(NPREGS)-1:0]         preg_b_o,
  output wire [4:0]                        shift_b_o,
  output wire [5:0]                        split_o,
  output wire                              evict_o,
  output wire [$clog2(NPREGS)-1:0]         evict_preg_o,
  output reg  [$clog2(ENTRIES+1)-1:0]      occ_o
);

  localparam integer PW = $clog2(NPREGS);
  localparam integer EW = 39 + PW;
  localparam integer IW = $clog2(ENTRIES);
  localparam integer OW = $clog2(ENTRIES + 1);
  localparam [2:0] OP_LOOKUP = 3'd1, OP_INV_PREG = 3'd3, OP_INV_RANGE = 3'd4, OP_CLEAR = 3'd5;
  localparam integer LASTI = ENTRIES - 1;
  localparam [IW-1:0] LAST = LASTI[IW-1:0];
  localparam [IW-1:0] IDX_ONE = 1;

  (* mem2reg *) reg [EW-1:0] amt_q [0:ENTRIES-1] /*verilator public_flat_rd*/;

  reg [IW-1:0] rr_q    /*verilator public_flat_rd*/;
  reg          done_q  /*verilator public_flat_rd*/;
  reg [1:0]    kind_q  /*verilator public_flat_rd*/;
  reg [PW-1:0] pa_q    /*verilator public_flat_rd*/;
  reg [4:0]    ka_q    /*verilator public_flat_rd*/;
  reg [PW-1:0] pb_q    /*verilator public_flat_rd*/;
  reg [4:0]    mb_q    /*verilator public_flat_rd*/;
  reg [5:0]    split_q /*verilator public_flat_rd*/;
  reg          ev_q    /*verilator public_flat_rd*/;
  reg [PW-1:0] evp_q   /*verilator public_flat_rd*/;

  // floor(log2(s)), 0 for s = 0
  function [3:0] lg2;
    input [8:0] s;
    integer b;
    begin
      lg2 = 4'd0;
      for (b = 1; b < 9; b = b + 1)
        if (s[b]) lg2 = b[3:0];
    end
  endfunction

  wire [3:0]  sh   = lg2(stride_i);
  wire        zs   = (stride_i == 9'd0);
  wire [23:0] low  = (24'd1 << sh) - 24'd1;

  wire [ENTRIES-1:0]   valid_v, head_v, full_v, perf_v, tail_v, pm_v, ov_v;
  wire [ENTRIES*24-1:0] d1_v, d2_v;
  wire [ENTRIES*5-1:0] c_v;
  wire [ENTRIES*PW-1:0] p_v;

  genvar g;
  generate
    for (g = 0; g < ENTRIES; g = g + 1) begin : ent
      wire [EW-1:0] e  = amt_q[g];
      wire          v  = e[EW-1];
      wire [4:0]    ec = e[4:0];
      wire [8:0]    es = e[13:5];
      wire [23:0]   eb = e[37:14];
      wire [PW-1:0] ep = e[38 +: PW];
      wire          same = v & (es == stride_i);
      wire [23:0]   d1 = base_i - eb;
      wire [23:0]   d2 = eb - base_i;
      // lane distances compared in words: x << sh instead of d >> sh per entry (one shifter
      // after the selection gives the lane shifts)
      wire [24:0]   ec_sh  = {20'd0, ec} << sh;
      wire [24:0]   cnt_sh = {20'd0, cnt_i} << sh;
      wire          head = same & (zs ? (d1 == 24'd0)
                                      : (((d1 & low) == 24'd0) & ({1'b0, d1} <= ec_sh)));
      wire          full = head & (zs ? (cnt_i <= ec)
                                      : (({1'b0, d1} + cnt_sh) <= ec_sh));
      wire          tail = same & ~zs & ((d2 & low) == 24'd0) & (d2 != 24'd0) &
                           ({1'b0, d2} <= cnt_sh) & (({1'b0, d2} + ec_sh) >= cnt_sh);
      wire [3:0]    esh = lg2(es);
      wire [29:0]   eend = {6'd0, eb} + ({25'd0, ec} << esh);
      assign valid_v[g] = v;
      assign head_v[g]  = head;
      assign full_v[g]  = full;
      assign perf_v[g]  = full & (d1 == 24'd0);
      assign tail_v[g]  = tail;
      assign pm_v[g]    = v & (ep == preg_i);
      assign ov_v[g]    = v & (eb <= hi_i) & (eend >= {6'd0, base_i});
      assign d1_v[g*24 +: 24] = d1;
      assign d2_v[g*24 +: 24] = d2;
      assign c_v[g*5 +: 5] = ec;
      assign p_v[g*PW +: PW] = ep;
    end
  endgenerate

  // lowest index of each kind (loops run downwards so the lowest set index wins)
  reg          any_free, any_perf, any_full, any_head, any_tail;
  reg [IW-1:0] i_free, i_perf, i_full, i_head, i_tail;
  integer i;
  always @* begin
    any_free = 1'b0; any_perf = 1'b0; any_full = 1'b0; any_head = 1'b0; any_tail = 1'b0;
    i_free = rr_q; i_perf = {IW{1'b0}}; i_full = {IW{1'b0}}; i_head = {IW{1'b0}};
    i_tail = {IW{1'b0}};
    for (i = ENTRIES - 1; i >= 0; i = i - 1) begin
      if (!valid_v[i]) begin any_free = 1'b1; i_free = i[IW-1:0]; end
      if (perf_v[i]) begin any_perf = 1'b1; i_perf = i[IW-1:0]; end
      if (full_v[i]) begin any_full = 1'b1; i_full = i[IW-1:0]; end
      if (head_v[i] & ~full_v[i]) begin any_head = 1'b1; i_head = i[IW-1:0]; end
      if (tail_v[i]) begin any_tail = 1'b1; i_tail = i[IW-1:0]; end
    end
  end

  // lane shifts of the selected entries (at most 31 when selected: only bits 4:0 are used)
  /* verilator lint_off UNUSEDSIGNAL */
  wire [23:0] hd1    = d1_v[i_head*24 +: 24] >> sh;
  wire [23:0] fd1    = d1_v[i_full*24 +: 24] >> sh;
  wire [23:0] td2    = d2_v[i_tail*24 +: 24] >> sh;
  /* verilator lint_on UNUSEDSIGNAL */
  wire [4:0] hk     = hd1[4:0];
  wire [4:0] fk     = fd1[4:0];
  wire [5:0] hsplit = {1'b0, c_v[i_head*5 +: 5]} + 6'd1 - {1'b0, hk};
  wire [4:0] tm     = td2[4:0];
  wire       merge  = any_head & any_tail & ({1'b0, tm} <= hsplit);
  wire [5:0] all_lanes = {1'b0, cnt_i} + 6'd1;

  reg [1:0]    kind_d;
  reg [PW-1:0] pa_d, pb_d;
  reg [4:0]    ka_d, mb_d;
  reg [5:0]    split_d;
  always @* begin
    kind_d = 2'd0; pa_d = {PW{1'b0}}; ka_d = 5'd0; pb_d = {PW{1'b0}}; mb_d = 5'd0;
    split_d = 6'd0;
    if (any_perf) begin
      kind_d = 2'd1; pa_d = p_v[i_perf*PW +: PW]; split_d = all_lanes;
    end else if (any_full) begin
      kind_d = 2'd2; pa_d = p_v[i_full*PW +: PW]; ka_d = fk;
      split_d = all_lanes;
    end else if (merge) begin
      kind_d = 2'd3; pa_d = p_v[i_head*PW +: PW]; ka_d = hk; pb_d = p_v[i_tail*PW +: PW];
      mb_d = tm; split_d = hsplit;
    end
  end

  wire          is_ins = ins_i;
  wire          evict  = is_ins & ~any_free;
  wire [IW-1:0] ins_at = any_free ? i_free : rr_q;
`ifdef BROKEN_FOR_TEST
  // Test-only fault (hw.mk builds it as "larf_amt-broken"): an insert that evicts the entry at
  // rr_q == 3 records the wrong physical register (bit 0 flipped). Lockstep must catch it.
  wire [PW-1:0] ins_preg = ins_preg_i ^ {{(PW-1){1'b0}}, evict && (rr_q == 3)};
`else
  wire [PW-1:0] ins_preg = ins_preg_i;
`endif
  wire [EW-1:0] ins_e = {1'b1, ins_preg, ins_base_i, ins_stride_i, ins_cnt_i};

  // the table: memory, not reset; one write port per entry (a CAM)
  generate
    for (g = 0; g < ENTRIES; g = g + 1) begin : wr
      localparam [IW-1:0] IDX = g;
      always @(posedge clk_i) begin
        if (is_ins && ins_at == IDX)
          amt_q[g] <= ins_e;
        else if ((op_i == OP_INV_PREG && pm_v[g]) || (op_i == OP_INV_RANGE && ov_v[g]) ||
                 op_i == OP_CLEAR)
          amt_q[g] <= {1'b0, amt_q[g][EW-2:0]};
      end
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rr_q <= {IW{1'b0}}; done_q <= 1'b0; kind_q <= 2'd0; pa_q <= {PW{1'b0}}; ka_q <= 5'd0;
      pb_q <= {PW{1'b0}}; mb_q <= 5'd0; split_q <= 6'd0; ev_q <= 1'b0; evp_q <= {PW{1'b0}};
    end else begin
      done_q <= (op_i == OP_LOOKUP);
      if (op_i == OP_LOOKUP) begin
        kind_q <= kind_d; pa_q <= pa_d; ka_q <= ka_d; pb_q <= pb_d; mb_q <= mb_d;
        split_q <= split_d;
      end
      ev_q <= evict;
      if (evict) begin
        evp_q <= p_v[rr_q*PW +: PW];
        rr_q  <= (rr_q == LAST) ? {IW{1'b0}} : rr_q + IDX_ONE;
      end
    end
  end

  integer n;
  always @* begin
    occ_o = {OW{1'b0}};
    for (n = 0; n < ENTRIES; n = n + 1)
      occ_o = occ_o + {{(OW-1){1'b0}}, valid_v[n]};
  end

  assign done_o       = done_q;
  assign kind_o       = kind_q;
  assign preg_a_o     = pa_q;
  assign shift_a_o    = ka_q;
  assign preg_b_o     = pb_q;
  assign shift_b_o    = mb_q;
  assign split_o      = split_q;
  assign evict_o      = ev_q;
  assign evict_preg_o = evp_q;

endmodule
