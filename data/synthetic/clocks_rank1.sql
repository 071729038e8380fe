-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- Rank 1 of the clock alignment pair; the expected values are in the header of clocks_rank0.sql. Schema 3.16.1
-- (nsys 2024.6); CREATE TABLE statements are copied from real exports (sqlite3 .schema of
-- shared/data/nsys/*.sqlite) or, for tables none of them has, from NVIDIA's documented export schema. Times
-- are ns since the session start.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
-- @include schema_mpi.sql

-- pid 7200 on its own host; globalPid = (1 << 48) | (7200 << 24), main thread tid 7200.
-- Session start (UTC) 1700000300000002000, 2000 ns after rank 0's.
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'reduce_kernel'),
    (3, 'MPI_Init'),
    (4, 'MPI_Finalize'),
    (5, 'MPI_Barrier'),
    (6, 'MPI_Allreduce'),
    (7, 'synthetic_clocks');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_clocks_rank1.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000300000002000, '2023-11-14T22:18:20', '2023-11-14T22:18:20');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'clock-host-b');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 60000, 0, 60000);
INSERT INTO PROCESSES VALUES (281595772665856, 7200, 'synthetic_clocks');
INSERT INTO ThreadNames VALUES (7, 20, 281595772673056);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (18000, 18500, 0, 281595772673056, 1, 1, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES
    (19000, 27000, 0, 1, NULL, 7, 1, 281595772665856, 2, 2, NULL, 1, 0, 32, 512, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0);

INSERT INTO MPI_RANKS VALUES (281595772673056, 1);
-- start, end, globalTid, textId
INSERT INTO MPI_OTHER_EVENTS VALUES
    (500, 17000, 281595772673056, 3),
    (58000, 59000, 281595772673056, 4);
-- start, end, globalTid, textId, commHandle, rootRank, size, recvSize, requestHandle (1140850688 = MPI_COMM_WORLD)
INSERT INTO MPI_COLLECTIVES_EVENTS VALUES
    (28000, 37200, 281595772673056, 5, 1140850688, NULL, 0, 0, NULL),
    (38000, 46700, 281595772673056, 6, 1140850688, NULL, 8, 8, NULL),
    (48000, 57400, 281595772673056, 6, 1140850688, NULL, 8, 8, NULL);
COMMIT;
