-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- Rank 0 of a 2-rank data-parallel training run (levels_rank0.sql + levels_rank1.sql: two processes on two
-- hosts, one GPU each, sessions started at the same instant), for the per-iteration / per-phase levels of
-- `gpueff analyze` (tests/test_levels_oracle.cpp). Schema 3.16.1 (nsys 2024.6). CREATE TABLE statements are
-- copied from real exports (sqlite3 .schema of data/nsys/*.sqlite). Times are ns since the session start.
--
-- Both ranks: the main thread pushes NVTX ranges ProfilerStep#0 .. ProfilerStep#5, each holding forward,
-- backward and optimizer; cudaLaunchKernel calls inside those launch a GEMM (ampere_sgemm_128x64_tn) and an
-- elementwise kernel on stream 7 and, in backward, ncclDevKernel_AllReduce_Sum_f32_RING_LL on stream 13.
-- Host: step k >= 1 is [H, H + 10000) with H = 40000 + 10000 (k - 1); forward [H+100, H+1000), backward
-- [H+1100, H+2000), optimizer [H+2100, H+9900). The GPU runs 1000 ns behind: G = H + 1000. Step 0 (H = 10000,
-- G = 11000) is a warm-up: every offset from H and G, and every kernel, is 3x as long.
-- GPU of a steady step, offsets from G (rank 0 | rank 1):
--   [0, 1500) GEMM, [1500, 2000) elementwise                      (forward, both ranks)
--   [2000, 3500) GEMM                                             (backward, both ranks)
--   [3500, 5500) GEMM, 2000 ns: the NCCL kernel overlaps it       | [3500, 5000) GEMM, 1500 ns, alone
--                                                                 | [5000, 5300) elementwise (rank 1's longer backward)
--   [3700, 6700) NCCL, starts 200 ns after its first GEMM ends    | [5500, 6700) NCCL: arrives 1800 ns later
--   [6700, 9800) elementwise (optimizer)                          | [6700, 9900) elementwise: ends 100 ns later
--
-- Expected, by hand (export time; trace time adds inputs[].offset_ns):
-- * iterations (markers, gpu-projection), B_k = G_k: [11000, 41000), [41000, 51000), [51000, 61000),
--   [61000, 71000), [71000, 81000), and the last [81000, 90900) (ends with rank 1's last kernel). Durations
--   30000, 10000 x 4, 9900: median 10000, MAD 0, threshold max(0, 500) = 500: #0 "warm-up", #1..#5 "steady".
-- * a steady 10000 ns iteration, nccl_as_communication: rank 0 useful 8600 (active 9800), rank 1 useful 8500
--   (active 9700); overlap share = (1800 + 0) / (3000 + 1200); straggler rank 1, lag 100 (300 in step 0).
-- * phases (steady iterations 1..5, 5 each): forward [G, G+2000) 10000 ns in all, backward [G+2000, G+6700)
--   23500, optimizer [G+6700, G+9900) 16000.
-- * collectives: 6 matched; skew 5400 (step 0) and 1800; rank 1 last at all 6, wait caused 5400 + 5 x 1800.
-- * kernel overlap of the GEMM: overlapped = rank 0's second backward GEMM (6000, then 2000 x 5: median 2000),
--   alone = the other 30 (4500 x 5, 1500 x 25: median 1500); slowdown 2000 / 1500. The elementwise kernel
--   never overlaps NCCL (the optimizer's starts when the NCCL kernel ends).
-- This rank: host synth-levels-a, pid 8100. NVTX texts through textId (StringIds).

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
CREATE TABLE NVTX_EVENTS (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    eventType                   INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_TYPE(id)
    rangeId                     INTEGER,                               -- Correlation ID returned from a nvtxRangeStart call.
    category                    INTEGER,                               -- User-controlled ID that can be used to group events.
    color                       INTEGER,                               -- Encoded ARGB color value.
    text                        TEXT,                                  -- Explicit name/text (non-registered string)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    endGlobalTid                INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Registered NVTX domain/string
    domainId                    INTEGER,                               -- User-controlled ID that can be used to group events.
    uint64Value                 INTEGER,                               -- One of possible payload value union members.
    int64Value                  INTEGER,                               -- One of possible payload value union members.
    doubleValue                 REAL,                                  -- One of possible payload value union members.
    uint32Value                 INTEGER,                               -- One of possible payload value union members.
    int32Value                  INTEGER,                               -- One of possible payload value union members.
    floatValue                  REAL,                                  -- One of possible payload value union members.
    jsonTextId                  INTEGER,                               -- One of possible payload value union members.
    jsonText                    TEXT,                                  -- One of possible payload value union members.
    binaryData                  TEXT                                   -- Binary payload. See docs for format.
);

INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'ampere_sgemm_128x64_tn'),
    (3, 'vectorized_elementwise_kernel'),
    (4, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'),
    (6, 'python3'),
    (10, 'ProfilerStep#0'), (11, 'ProfilerStep#1'), (12, 'ProfilerStep#2'), (13, 'ProfilerStep#3'),
    (14, 'ProfilerStep#4'), (15, 'ProfilerStep#5'),
    (20, 'forward'), (21, 'backward'), (22, 'optimizer');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_levels_rank0.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000300000000000, '2023-11-14T22:18:20', '2023-11-14T22:18:20');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'synth-levels-a');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 100000, 0, 100000);
-- pid 8100: globalPid = (1 << 48) | (8100 << 24) = 281610872160256; main thread tid 8100: globalTid = 281610872168356.
INSERT INTO PROCESSES VALUES (281610872160256, 8100, 'synthetic_train');
INSERT INTO ThreadNames VALUES (6, 20, 281610872168356);

-- NVTX push/pop ranges (eventType 59) of the main thread: each ProfilerStep#k holds forward, backward, optimizer.
-- Text through textId (StringIds).
INSERT INTO NVTX_EVENTS (start, end, eventType, textId, text, globalTid) VALUES
    -- ProfilerStep#0 (warm-up: every time x3)
    (10000, 40000, 59, 10, NULL, 281610872168356),
    (10300, 13000, 59, 20, NULL, 281610872168356),
    (13300, 16000, 59, 21, NULL, 281610872168356),
    (16300, 39700, 59, 22, NULL, 281610872168356),
    -- ProfilerStep#1
    (40000, 50000, 59, 11, NULL, 281610872168356),
    (40100, 41000, 59, 20, NULL, 281610872168356),
    (41100, 42000, 59, 21, NULL, 281610872168356),
    (42100, 49900, 59, 22, NULL, 281610872168356),
    -- ProfilerStep#2
    (50000, 60000, 59, 12, NULL, 281610872168356),
    (50100, 51000, 59, 20, NULL, 281610872168356),
    (51100, 52000, 59, 21, NULL, 281610872168356),
    (52100, 59900, 59, 22, NULL, 281610872168356),
    -- ProfilerStep#3
    (60000, 70000, 59, 13, NULL, 281610872168356),
    (60100, 61000, 59, 20, NULL, 281610872168356),
    (61100, 62000, 59, 21, NULL, 281610872168356),
    (62100, 69900, 59, 22, NULL, 281610872168356),
    -- ProfilerStep#4
    (70000, 80000, 59, 14, NULL, 281610872168356),
    (70100, 71000, 59, 20, NULL, 281610872168356),
    (71100, 72000, 59, 21, NULL, 281610872168356),
    (72100, 79900, 59, 22, NULL, 281610872168356),
    -- ProfilerStep#5
    (80000, 90000, 59, 15, NULL, 281610872168356),
    (80100, 81000, 59, 20, NULL, 281610872168356),
    (81100, 82000, 59, 21, NULL, 281610872168356),
    (82100, 89900, 59, 22, NULL, 281610872168356);

-- cudaLaunchKernel calls, 100 ns each, inside the child range of their step (correlation ids 1, 2, ...).
-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    -- ProfilerStep#0 (warm-up: every time x3)
    (10600, 10700, 0, 281610872168356, 1, 1, 0, NULL),
    (10900, 11000, 0, 281610872168356, 2, 1, 0, NULL),
    (13600, 13700, 0, 281610872168356, 3, 1, 0, NULL),
    (13900, 14000, 0, 281610872168356, 4, 1, 0, NULL),
    (14500, 14600, 0, 281610872168356, 5, 1, 0, NULL),
    (16600, 16700, 0, 281610872168356, 6, 1, 0, NULL),
    -- ProfilerStep#1
    (40200, 40300, 0, 281610872168356, 7, 1, 0, NULL),
    (40300, 40400, 0, 281610872168356, 8, 1, 0, NULL),
    (41200, 41300, 0, 281610872168356, 9, 1, 0, NULL),
    (41300, 41400, 0, 281610872168356, 10, 1, 0, NULL),
    (41500, 41600, 0, 281610872168356, 11, 1, 0, NULL),
    (42200, 42300, 0, 281610872168356, 12, 1, 0, NULL),
    -- ProfilerStep#2
    (50200, 50300, 0, 281610872168356, 13, 1, 0, NULL),
    (50300, 50400, 0, 281610872168356, 14, 1, 0, NULL),
    (51200, 51300, 0, 281610872168356, 15, 1, 0, NULL),
    (51300, 51400, 0, 281610872168356, 16, 1, 0, NULL),
    (51500, 51600, 0, 281610872168356, 17, 1, 0, NULL),
    (52200, 52300, 0, 281610872168356, 18, 1, 0, NULL),
    -- ProfilerStep#3
    (60200, 60300, 0, 281610872168356, 19, 1, 0, NULL),
    (60300, 60400, 0, 281610872168356, 20, 1, 0, NULL),
    (61200, 61300, 0, 281610872168356, 21, 1, 0, NULL),
    (61300, 61400, 0, 281610872168356, 22, 1, 0, NULL),
    (61500, 61600, 0, 281610872168356, 23, 1, 0, NULL),
    (62200, 62300, 0, 281610872168356, 24, 1, 0, NULL),
    -- ProfilerStep#4
    (70200, 70300, 0, 281610872168356, 25, 1, 0, NULL),
    (70300, 70400, 0, 281610872168356, 26, 1, 0, NULL),
    (71200, 71300, 0, 281610872168356, 27, 1, 0, NULL),
    (71300, 71400, 0, 281610872168356, 28, 1, 0, NULL),
    (71500, 71600, 0, 281610872168356, 29, 1, 0, NULL),
    (72200, 72300, 0, 281610872168356, 30, 1, 0, NULL),
    -- ProfilerStep#5
    (80200, 80300, 0, 281610872168356, 31, 1, 0, NULL),
    (80300, 80400, 0, 281610872168356, 32, 1, 0, NULL),
    (81200, 81300, 0, 281610872168356, 33, 1, 0, NULL),
    (81300, 81400, 0, 281610872168356, 34, 1, 0, NULL),
    (81500, 81600, 0, 281610872168356, 35, 1, 0, NULL),
    (82200, 82300, 0, 281610872168356, 36, 1, 0, NULL);

-- Kernels on GPU 0: compute on stream 7, NCCL on stream 13. (start, end, streamId, correlationId, name id)
CREATE TEMP TABLE k (start INTEGER, end INTEGER, streamId INTEGER, correlationId INTEGER, nameId INTEGER);
INSERT INTO k VALUES
    -- ProfilerStep#0 (warm-up: every time x3): GPU from 11000
    (11000, 15500, 7, 1, 2), --  4500  forward GEMM
    (15500, 17000, 7, 2, 3), --  1500  forward elementwise
    (17000, 21500, 7, 3, 2), --  4500  backward GEMM 1 (alone)
    (21500, 27500, 7, 4, 2), --  6000  backward GEMM 2, overlapped by the NCCL kernel: slower
    (22100, 31100, 13, 5, 4), --  9000  all-reduce, arrives first
    (31100, 40400, 7, 6, 3), --  9300  optimizer elementwise
    -- ProfilerStep#1: GPU from 41000
    (41000, 42500, 7, 7, 2), --  1500  forward GEMM
    (42500, 43000, 7, 8, 3), --   500  forward elementwise
    (43000, 44500, 7, 9, 2), --  1500  backward GEMM 1 (alone)
    (44500, 46500, 7, 10, 2), --  2000  backward GEMM 2, overlapped by the NCCL kernel: slower
    (44700, 47700, 13, 11, 4), --  3000  all-reduce, arrives first
    (47700, 50800, 7, 12, 3), --  3100  optimizer elementwise
    -- ProfilerStep#2: GPU from 51000
    (51000, 52500, 7, 13, 2), --  1500  forward GEMM
    (52500, 53000, 7, 14, 3), --   500  forward elementwise
    (53000, 54500, 7, 15, 2), --  1500  backward GEMM 1 (alone)
    (54500, 56500, 7, 16, 2), --  2000  backward GEMM 2, overlapped by the NCCL kernel: slower
    (54700, 57700, 13, 17, 4), --  3000  all-reduce, arrives first
    (57700, 60800, 7, 18, 3), --  3100  optimizer elementwise
    -- ProfilerStep#3: GPU from 61000
    (61000, 62500, 7, 19, 2), --  1500  forward GEMM
    (62500, 63000, 7, 20, 3), --   500  forward elementwise
    (63000, 64500, 7, 21, 2), --  1500  backward GEMM 1 (alone)
    (64500, 66500, 7, 22, 2), --  2000  backward GEMM 2, overlapped by the NCCL kernel: slower
    (64700, 67700, 13, 23, 4), --  3000  all-reduce, arrives first
    (67700, 70800, 7, 24, 3), --  3100  optimizer elementwise
    -- ProfilerStep#4: GPU from 71000
    (71000, 72500, 7, 25, 2), --  1500  forward GEMM
    (72500, 73000, 7, 26, 3), --   500  forward elementwise
    (73000, 74500, 7, 27, 2), --  1500  backward GEMM 1 (alone)
    (74500, 76500, 7, 28, 2), --  2000  backward GEMM 2, overlapped by the NCCL kernel: slower
    (74700, 77700, 13, 29, 4), --  3000  all-reduce, arrives first
    (77700, 80800, 7, 30, 3), --  3100  optimizer elementwise
    -- ProfilerStep#5: GPU from 81000
    (81000, 82500, 7, 31, 2), --  1500  forward GEMM
    (82500, 83000, 7, 32, 3), --   500  forward elementwise
    (83000, 84500, 7, 33, 2), --  1500  backward GEMM 1 (alone)
    (84500, 86500, 7, 34, 2), --  2000  backward GEMM 2, overlapped by the NCCL kernel: slower
    (84700, 87700, 13, 35, 4), --  3000  all-reduce, arrives first
    (87700, 90800, 7, 36, 3); --  3100  optimizer elementwise
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig)
SELECT start, end, 0, 1, NULL, streamId, correlationId, 281610872160256, nameId, nameId, NULL, 1, 0, 32, 128, 1, 1, 256, 1, 1,
    0, 0, 0, 0, correlationId, 0, NULL, 0 FROM k;
DROP TABLE k;
COMMIT;
