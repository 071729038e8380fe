-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- Rank 1 of a 2-rank data-parallel training run (levels_rank0.sql + levels_rank1.sql); the layout and the
-- expected values are in the header of levels_rank0.sql. Schema 3.16.1 (nsys 2024.6). CREATE TABLE statements
-- are copied from real exports (sqlite3 .schema of data/nsys/*.sqlite). Times are ns since the session start.
--
-- This rank is the straggler: its backward runs one more elementwise kernel (300 ns; 900 in the warm-up step
-- #0), so its NCCL kernel starts 1800 ns (5400) after rank 0's in every step, and its optimizer kernel ends
-- 100 ns (300) after rank 0's. Its second backward GEMM ends before its NCCL kernel starts: it runs alone.
-- This rank: host synth-levels-b, pid 8200. NVTX texts inline (the `text` column), not through textId.

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
    (6, 'python3');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_levels_rank1.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000300000000000, '2023-11-14T22:18:20', '2023-11-14T22:18:20');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'synth-levels-b');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 100000, 0, 100000);
-- pid 8200: globalPid = (1 << 48) | (8200 << 24) = 281612549881856; main thread tid 8200: globalTid = 281612549890056.
INSERT INTO PROCESSES VALUES (281612549881856, 8200, 'synthetic_train');
INSERT INTO ThreadNames VALUES (6, 20, 281612549890056);

-- NVTX push/pop ranges (eventType 59) of the main thread: each ProfilerStep#k holds forward, backward, optimizer.
-- Text inline (the `text` column).
INSERT INTO NVTX_EVENTS (start, end, eventType, textId, text, globalTid) VALUES
    -- ProfilerStep#0 (warm-up: every time x3)
    (10000, 40000, 59, NULL, 'ProfilerStep#0', 281612549890056),
    (10300, 13000, 59, NULL, 'forward', 281612549890056),
    (13300, 16000, 59, NULL, 'backward', 281612549890056),
    (16300, 39700, 59, NULL, 'optimizer', 281612549890056),
    -- ProfilerStep#1
    (40000, 50000, 59, NULL, 'ProfilerStep#1', 281612549890056),
    (40100, 41000, 59, NULL, 'forward', 281612549890056),
    (41100, 42000, 59, NULL, 'backward', 281612549890056),
    (42100, 49900, 59, NULL, 'optimizer', 281612549890056),
    -- ProfilerStep#2
    (50000, 60000, 59, NULL, 'ProfilerStep#2', 281612549890056),
    (50100, 51000, 59, NULL, 'forward', 281612549890056),
    (51100, 52000, 59, NULL, 'backward', 281612549890056),
    (52100, 59900, 59, NULL, 'optimizer', 281612549890056),
    -- ProfilerStep#3
    (60000, 70000, 59, NULL, 'ProfilerStep#3', 281612549890056),
    (60100, 61000, 59, NULL, 'forward', 281612549890056),
    (61100, 62000, 59, NULL, 'backward', 281612549890056),
    (62100, 69900, 59, NULL, 'optimizer', 281612549890056),
    -- ProfilerStep#4
    (70000, 80000, 59, NULL, 'ProfilerStep#4', 281612549890056),
    (70100, 71000, 59, NULL, 'forward', 281612549890056),
    (71100, 72000, 59, NULL, 'backward', 281612549890056),
    (72100, 79900, 59, NULL, 'optimizer', 281612549890056),
    -- ProfilerStep#5
    (80000, 90000, 59, NULL, 'ProfilerStep#5', 281612549890056),
    (80100, 81000, 59, NULL, 'forward', 281612549890056),
    (81100, 82000, 59, NULL, 'backward', 281612549890056),
    (82100, 89900, 59, NULL, 'optimizer', 281612549890056);

-- cudaLaunchKernel calls, 100 ns each, inside the child range of their step (correlation ids 1, 2, ...).
-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    -- ProfilerStep#0 (warm-up: every time x3)
    (10600, 10700, 0, 281612549890056, 1, 1, 0, NULL),
    (10900, 11000, 0, 281612549890056, 2, 1, 0, NULL),
    (13600, 13700, 0, 281612549890056, 3, 1, 0, NULL),
    (13900, 14000, 0, 281612549890056, 4, 1, 0, NULL),
    (14200, 14300, 0, 281612549890056, 5, 1, 0, NULL),
    (14500, 14600, 0, 281612549890056, 6, 1, 0, NULL),
    (16600, 16700, 0, 281612549890056, 7, 1, 0, NULL),
    -- ProfilerStep#1
    (40200, 40300, 0, 281612549890056, 8, 1, 0, NULL),
    (40300, 40400, 0, 281612549890056, 9, 1, 0, NULL),
    (41200, 41300, 0, 281612549890056, 10, 1, 0, NULL),
    (41300, 41400, 0, 281612549890056, 11, 1, 0, NULL),
    (41400, 41500, 0, 281612549890056, 12, 1, 0, NULL),
    (41500, 41600, 0, 281612549890056, 13, 1, 0, NULL),
    (42200, 42300, 0, 281612549890056, 14, 1, 0, NULL),
    -- ProfilerStep#2
    (50200, 50300, 0, 281612549890056, 15, 1, 0, NULL),
    (50300, 50400, 0, 281612549890056, 16, 1, 0, NULL),
    (51200, 51300, 0, 281612549890056, 17, 1, 0, NULL),
    (51300, 51400, 0, 281612549890056, 18, 1, 0, NULL),
    (51400, 51500, 0, 281612549890056, 19, 1, 0, NULL),
    (51500, 51600, 0, 281612549890056, 20, 1, 0, NULL),
    (52200, 52300, 0, 281612549890056, 21, 1, 0, NULL),
    -- ProfilerStep#3
    (60200, 60300, 0, 281612549890056, 22, 1, 0, NULL),
    (60300, 60400, 0, 281612549890056, 23, 1, 0, NULL),
    (61200, 61300, 0, 281612549890056, 24, 1, 0, NULL),
    (61300, 61400, 0, 281612549890056, 25, 1, 0, NULL),
    (61400, 61500, 0, 281612549890056, 26, 1, 0, NULL),
    (61500, 61600, 0, 281612549890056, 27, 1, 0, NULL),
    (62200, 62300, 0, 281612549890056, 28, 1, 0, NULL),
    -- ProfilerStep#4
    (70200, 70300, 0, 281612549890056, 29, 1, 0, NULL),
    (70300, 70400, 0, 281612549890056, 30, 1, 0, NULL),
    (71200, 71300, 0, 281612549890056, 31, 1, 0, NULL),
    (71300, 71400, 0, 281612549890056, 32, 1, 0, NULL),
    (71400, 71500, 0, 281612549890056, 33, 1, 0, NULL),
    (71500, 71600, 0, 281612549890056, 34, 1, 0, NULL),
    (72200, 72300, 0, 281612549890056, 35, 1, 0, NULL),
    -- ProfilerStep#5
    (80200, 80300, 0, 281612549890056, 36, 1, 0, NULL),
    (80300, 80400, 0, 281612549890056, 37, 1, 0, NULL),
    (81200, 81300, 0, 281612549890056, 38, 1, 0, NULL),
    (81300, 81400, 0, 281612549890056, 39, 1, 0, NULL),
    (81400, 81500, 0, 281612549890056, 40, 1, 0, NULL),
    (81500, 81600, 0, 281612549890056, 41, 1, 0, NULL),
    (82200, 82300, 0, 281612549890056, 42, 1, 0, NULL);

-- Kernels on GPU 0: compute on stream 7, NCCL on stream 13. (start, end, streamId, correlationId, name id)
CREATE TEMP TABLE k (start INTEGER, end INTEGER, streamId INTEGER, correlationId INTEGER, nameId INTEGER);
INSERT INTO k VALUES
    -- ProfilerStep#0 (warm-up: every time x3): GPU from 11000
    (11000, 15500, 7, 1, 2), --  4500  forward GEMM
    (15500, 17000, 7, 2, 3), --  1500  forward elementwise
    (17000, 21500, 7, 3, 2), --  4500  backward GEMM 1
    (21500, 26000, 7, 4, 2), --  4500  backward GEMM 2 (alone)
    (26000, 26900, 7, 5, 3), --   900  backward elementwise (rank 1 only)
    (27500, 31100, 13, 6, 4), --  3600  all-reduce, arrives last
    (31100, 40700, 7, 7, 3), --  9600  optimizer elementwise
    -- ProfilerStep#1: GPU from 41000
    (41000, 42500, 7, 8, 2), --  1500  forward GEMM
    (42500, 43000, 7, 9, 3), --   500  forward elementwise
    (43000, 44500, 7, 10, 2), --  1500  backward GEMM 1
    (44500, 46000, 7, 11, 2), --  1500  backward GEMM 2 (alone)
    (46000, 46300, 7, 12, 3), --   300  backward elementwise (rank 1 only)
    (46500, 47700, 13, 13, 4), --  1200  all-reduce, arrives last
    (47700, 50900, 7, 14, 3), --  3200  optimizer elementwise
    -- ProfilerStep#2: GPU from 51000
    (51000, 52500, 7, 15, 2), --  1500  forward GEMM
    (52500, 53000, 7, 16, 3), --   500  forward elementwise
    (53000, 54500, 7, 17, 2), --  1500  backward GEMM 1
    (54500, 56000, 7, 18, 2), --  1500  backward GEMM 2 (alone)
    (56000, 56300, 7, 19, 3), --   300  backward elementwise (rank 1 only)
    (56500, 57700, 13, 20, 4), --  1200  all-reduce, arrives last
    (57700, 60900, 7, 21, 3), --  3200  optimizer elementwise
    -- ProfilerStep#3: GPU from 61000
    (61000, 62500, 7, 22, 2), --  1500  forward GEMM
    (62500, 63000, 7, 23, 3), --   500  forward elementwise
    (63000, 64500, 7, 24, 2), --  1500  backward GEMM 1
    (64500, 66000, 7, 25, 2), --  1500  backward GEMM 2 (alone)
    (66000, 66300, 7, 26, 3), --   300  backward elementwise (rank 1 only)
    (66500, 67700, 13, 27, 4), --  1200  all-reduce, arrives last
    (67700, 70900, 7, 28, 3), --  3200  optimizer elementwise
    -- ProfilerStep#4: GPU from 71000
    (71000, 72500, 7, 29, 2), --  1500  forward GEMM
    (72500, 73000, 7, 30, 3), --   500  forward elementwise
    (73000, 74500, 7, 31, 2), --  1500  backward GEMM 1
    (74500, 76000, 7, 32, 2), --  1500  backward GEMM 2 (alone)
    (76000, 76300, 7, 33, 3), --   300  backward elementwise (rank 1 only)
    (76500, 77700, 13, 34, 4), --  1200  all-reduce, arrives last
    (77700, 80900, 7, 35, 3), --  3200  optimizer elementwise
    -- ProfilerStep#5: GPU from 81000
    (81000, 82500, 7, 36, 2), --  1500  forward GEMM
    (82500, 83000, 7, 37, 3), --   500  forward elementwise
    (83000, 84500, 7, 38, 2), --  1500  backward GEMM 1
    (84500, 86000, 7, 39, 2), --  1500  backward GEMM 2 (alone)
    (86000, 86300, 7, 40, 3), --   300  backward elementwise (rank 1 only)
    (86500, 87700, 13, 41, 4), --  1200  all-reduce, arrives last
    (87700, 90900, 7, 42, 3); --  3200  optimizer elementwise
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig)
SELECT start, end, 0, 1, NULL, streamId, correlationId, 281612549881856, nameId, nameId, NULL, 1, 0, 32, 128, 1, 1, 256, 1, 1,
    0, 0, 0, 0, correlationId, 0, NULL, 0 FROM k;
DROP TABLE k;
COMMIT;
