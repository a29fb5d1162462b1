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
// registers are. occ_o counts valid entries after the edge. Word distances are taken modulo
// 2^24, the policy's per-SM address window, as the C reference (csim/hw/larf/larf_amt.c) does.
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
  output wire [$clog2(ENTRIES+1)-1:0]      occ_o
);

  localparam integer PW = $clog2(NPREGS);
  localparam integer EW = 39 + PW;
  localparam integer IW = $clog2(ENTRIES);
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

  // The request's stride is shared by every entry it can match (a match needs the same
  // stride), so the shifts by it are masks computed once here. Per entry there is one
  // subtractor, d = base_i - base (mod 2^24): an entry matches when d is a whole number of
  // lanes (the low sh bits zero) and that number fits in a lane index (the bits from sh + 5 up
  // all zero: the request starts d lanes into the entry; all ones: the entry starts -d lanes
  // into the request). The lane count itself is the 5 bits d[sh +: 5].
  wire [3:0]  sh    = lg2(stride_i);
  wire        zs    = (stride_i == 9'd0);
  wire [23:0] low   = (24'd1 << sh) - 24'd1;
  wire [23:0] hmask = ~((24'd32 << sh) - 24'd1);
  wire [5:0]  cnt6  = {1'b0, cnt_i};

  wire [ENTRIES-1:0]    valid_v, full_v, perf_v, hnf_v, tail_v, pm_v, ov_v, rr_v;
  wire [ENTRIES*(PW+10)-1:0] a_v;   // {preg, lanes into the entry, cnt}: the "A" register
  wire [ENTRIES*(PW+5)-1:0]  b_v;   // {preg, lanes into the request}: the merge's tail
  wire [ENTRIES*PW-1:0]      p_v;

  genvar g;
  generate
    for (g = 0; g < ENTRIES; g = g + 1) begin : ent
      localparam [IW-1:0] IDX = g;
      wire [EW-1:0] e  = amt_q[g];
      wire          v  = e[EW-1];
      wire [4:0]    ec = e[4:0];
      wire [8:0]    es = e[13:5];
      wire [23:0]   eb = e[37:14];
      wire [PW-1:0] ep = e[38 +: PW];
      wire [5:0]    ec6  = {1'b0, ec};
      wire          same = v & (es == stride_i);
      wire [24:0]   dd   = {1'b0, base_i} - {1'b0, eb};
      wire [23:0]   d    = dd[23:0];
      wire          below = dd[24];              // base_i < base (not modular)
      wire          whole = ((d & low) == 24'd0);
      wire          upz   = ((d & hmask) == 24'd0);
      wire          upo   = ((d & hmask) == hmask);
      wire [12:0]   dlo   = d[12:0];             // sh + 5 <= 13
      wire [4:0]    lk    = dlo[sh +: 5];        // lanes of the request into the entry
      wire [4:0]    lm    = 5'd0 - lk;           // lanes of the entry into the request
      wire [5:0]    lk6   = {1'b0, lk};
      wire [5:0]    lm6   = {1'b0, lm};
      wire          head  = same & whole & upz & (zs ? (lk == 5'd0) : (lk <= ec));
      wire          full  = head & ((lk6 + cnt6) <= ec6);
      wire          tail  = same & ~zs & whole & upo & (lk != 5'd0) & (lm <= cnt_i) &
                            ((lm6 + ec6) >= cnt6);
      // a store's words [base_i, hi_i] meet the entry's [base, base + cnt << log2(stride)]
      // (the span is below 2^13): base <= hi_i, and base_i is below base or within the span
      wire [12:0]   span  = {8'd0, ec} << lg2(es);
      wire          reach = below | ((d[23:13] == 11'd0) & (dlo <= span));
      assign valid_v[g] = v;
      assign full_v[g]  = full;
      assign perf_v[g]  = full & (lk == 5'd0);
      assign hnf_v[g]   = head & ~full;
      assign tail_v[g]  = tail;
      assign pm_v[g]    = v & (ep == preg_i);
      assign ov_v[g]    = v & (eb <= hi_i) & reach;
      assign rr_v[g]    = (rr_q == IDX);
      assign a_v[g*(PW+10) +: PW+10] = {ep, lk, ec};
      assign b_v[g*(PW+5) +: PW+5]   = {ep, lm};
      assign p_v[g*PW +: PW]         = ep;
    end
  endgenerate

  // Each class's answer is its lowest-index entry.
  wire any_free = ~&valid_v;
  wire any_perf = |perf_v;
  wire any_full = |full_v;
  wire any_head = |hnf_v;
  wire any_tail = |tail_v;
  // register A: the perfect match, else the shifted one, else the merge's head
  wire [ENTRIES-1:0] a_cand = any_perf ? perf_v : (any_full ? full_v : hnf_v);
  wire [ENTRIES-1:0] free_oh, a_oh, b_oh;
  larf_lowest #(.N(ENTRIES)) u_free (.v_i(~valid_v), .oh_o(free_oh));
  larf_lowest #(.N(ENTRIES)) u_ahit (.v_i(a_cand), .oh_o(a_oh));
  larf_lowest #(.N(ENTRIES)) u_bhit (.v_i(tail_v), .oh_o(b_oh));

  wire [PW-1:0] pa, pb, evp;
  wire [4:0]    ka, ca, mb;
  larf_ohmux #(.N(ENTRIES), .W(PW+10)) u_a (.sel_i(a_oh), .data_i(a_v), .q_o({pa, ka, ca}));
  larf_ohmux #(.N(ENTRIES), .W(PW+5))  u_b (.sel_i(b_oh), .data_i(b_v), .q_o({pb, mb}));
  larf_ohmux #(.N(ENTRIES), .W(PW))    u_e (.sel_i(rr_v), .data_i(p_v), .q_o(evp));

  wire [5:0] head_split  = {1'b0, ca} + 6'd1 - {1'b0, ka};
  wire       merge_found = any_head & any_tail & ({1'b0, mb} <= head_split);
  wire [5:0] all_lanes   = cnt6 + 6'd1;

  reg [1:0]    kind_d;
  reg [PW-1:0] pa_d, pb_d;
  reg [4:0]    ka_d, mb_d;
  reg [5:0]    split_d;
  always @* begin
    kind_d = 2'd0; pa_d = {PW{1'b0}}; ka_d = 5'd0; pb_d = {PW{1'b0}}; mb_d = 5'd0;
    split_d = 6'd0;
    if (any_perf) begin
      kind_d = 2'd1; pa_d = pa; split_d = all_lanes;
    end else if (any_full) begin
      kind_d = 2'd2; pa_d = pa; ka_d = ka; split_d = all_lanes;
    end else if (merge_found) begin
      kind_d = 2'd3; pa_d = pa; ka_d = ka; pb_d = pb; mb_d = mb; split_d = head_split;
    end
  end

  wire               is_ins = ins_i;
  wire               evict  = is_ins & ~any_free;
  wire [ENTRIES-1:0] ins_oh = any_free ? free_oh : rr_v;
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
      always @(posedge clk_i) begin
        if (is_ins && ins_oh[g])
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
        evp_q <= evp;
        rr_q  <= (rr_q == LAST) ? {IW{1'b0}} : rr_q + IDX_ONE;
      end
    end
  end

  larf_popcnt #(.N(ENTRIES)) u_occ (.v_i(valid_v), .cnt_o(occ_o));

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
