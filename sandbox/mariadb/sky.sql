-- The replication procedures of a managed service, for local MariaDB
-- servers: the same names, arguments and result columns as the live
-- service's `sky` schema. Internal bookkeeping is not written to the binlog.
-- Statements end with a double dollar sign, so bodies can hold semicolons.
CREATE DATABASE IF NOT EXISTS sky$$

CREATE TABLE IF NOT EXISTS sky.settings (
  name  VARCHAR(64) PRIMARY KEY,
  value VARCHAR(255) NOT NULL
)$$

CREATE TABLE IF NOT EXISTS sky.replication_state (
  id         INT PRIMARY KEY,
  grant_stmt TEXT NOT NULL
)$$

DROP PROCEDURE IF EXISTS sky.set_external_primary$$
CREATE PROCEDURE sky.set_external_primary(host VARCHAR(255), port INT, use_ssl BOOLEAN, position_clause TEXT)
SQL SECURITY DEFINER
BEGIN
  DECLARE usr VARCHAR(80);
  DECLARE pw VARCHAR(64);
  DECLARE egress VARCHAR(255);
  DECLARE old_log_bin INT DEFAULT @@SESSION.sql_log_bin;
  DECLARE target VARCHAR(255) DEFAULT host;
  SET SESSION sql_log_bin = 0;
  -- Names under .localhost are loopback (RFC 6761; the sandbox's service
  -- FQDNs are <id>.sandbox.localhost), but the server's resolver does not
  -- know that, and 'localhost' would mean its Unix socket.
  IF LOWER(TRIM(TRAILING '.' FROM host)) = 'localhost' OR LOWER(TRIM(TRAILING '.' FROM host)) LIKE '%.localhost' THEN
    SET target = '127.0.0.1';
  END IF;
  SELECT COALESCE((SELECT value FROM sky.settings WHERE name = 'service_id'), CONCAT('srv', @@server_id)) INTO usr;
  SET usr = CONCAT('skysql_replication_', usr);
  SELECT COALESCE((SELECT value FROM sky.settings WHERE name = 'outbound_ip'), '%') INTO egress;
  SET pw = HEX(RANDOM_BYTES(12));
  STOP SLAVE;
  SET @sky_sql = CONCAT('CHANGE MASTER TO MASTER_HOST=', QUOTE(target),
    ', MASTER_PORT=', port,
    ', MASTER_USER=', QUOTE(usr),
    ', MASTER_PASSWORD=', QUOTE(pw),
    ', MASTER_SSL=', IF(use_ssl, '1', '0'),
    ', MASTER_CONNECT_RETRY=1',
    position_clause);
  PREPARE sky_stmt FROM @sky_sql;
  EXECUTE sky_stmt;
  DEALLOCATE PREPARE sky_stmt;
  SET @sky_sql = NULL;
  REPLACE INTO sky.replication_state (id, grant_stmt) VALUES (1,
    CONCAT('GRANT REPLICATION SLAVE ON *.* TO ', QUOTE(usr), '@', QUOTE(egress), ' IDENTIFIED BY ', QUOTE(pw), ';'));
  SET SESSION sql_log_bin = old_log_bin;
  SELECT grant_stmt AS Run_this_grant_on_your_external_primary FROM sky.replication_state WHERE id = 1;
END$$

DROP PROCEDURE IF EXISTS sky.change_external_primary_gtid$$
CREATE PROCEDURE sky.change_external_primary_gtid(host VARCHAR(255), port INT, gtid VARCHAR(60), use_ssl_encryption BOOLEAN)
SQL SECURITY DEFINER
BEGIN
  STOP SLAVE;
  SET GLOBAL gtid_slave_pos = gtid;
  CALL sky.set_external_primary(host, port, use_ssl_encryption, ', MASTER_USE_GTID=slave_pos');
END$$

DROP PROCEDURE IF EXISTS sky.change_external_primary$$
CREATE PROCEDURE sky.change_external_primary(host VARCHAR(255), port INT, logfile TEXT, logpos BIGINT, use_ssl_encryption BOOLEAN)
SQL SECURITY DEFINER
BEGIN
  CALL sky.set_external_primary(host, port, use_ssl_encryption,
    CONCAT(', MASTER_USE_GTID=no, MASTER_LOG_FILE=', QUOTE(logfile), ', MASTER_LOG_POS=', logpos));
END$$

DROP PROCEDURE IF EXISTS sky.replication_grants$$
CREATE PROCEDURE sky.replication_grants()
SQL SECURITY DEFINER
BEGIN
  IF NOT EXISTS (SELECT 1 FROM sky.replication_state WHERE id = 1) THEN
    SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1200,
      MESSAGE_TEXT = 'No replication is configured: call change_external_primary_gtid or change_external_primary first';
  END IF;
  SELECT grant_stmt AS Run_this_grant_on_your_external_primary FROM sky.replication_state WHERE id = 1;
END$$

DROP PROCEDURE IF EXISTS sky.start_replication$$
CREATE PROCEDURE sky.start_replication()
SQL SECURITY DEFINER
BEGIN
  START SLAVE;
  SELECT 'Replication started' AS Message;
END$$

DROP PROCEDURE IF EXISTS sky.stop_replication$$
CREATE PROCEDURE sky.stop_replication()
SQL SECURITY DEFINER
BEGIN
  STOP SLAVE;
  SELECT 'Replication stopped' AS Message;
END$$

DROP PROCEDURE IF EXISTS sky.reset_replication$$
CREATE PROCEDURE sky.reset_replication()
SQL SECURITY DEFINER
BEGIN
  STOP SLAVE;
  RESET SLAVE ALL;
  SELECT 'Replication reset' AS Message;
END$$

DROP PROCEDURE IF EXISTS sky.replication_status$$
CREATE PROCEDURE sky.replication_status()
SQL SECURITY DEFINER
BEGIN
  SHOW SLAVE STATUS;
END$$

DROP PROCEDURE IF EXISTS sky.gtid_status$$
CREATE PROCEDURE sky.gtid_status()
SQL SECURITY DEFINER
BEGIN
  SELECT @@GLOBAL.gtid_binlog_pos AS gtid_binlog_pos,
         @@GLOBAL.gtid_current_pos AS gtid_current_pos,
         @@GLOBAL.gtid_slave_pos AS gtid_slave_pos;
END$$
